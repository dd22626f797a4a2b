"""What lateness-table.py, fire-table.py, expiry-table.py and map-table.py share: a 99.9 % Student-t
interval, and the raw data of one of our JMH AuxCounters. Those report each iteration's figure
divided by the measurement iteration count (JMH sums them over iterations, and over forks too, so
its aggregated score is not the mean): the raw data times that count is the figure."""
import math
import statistics

# two-sided 99.9 % Student-t quantiles by degrees of freedom
T999 = {1: 636.6, 2: 31.60, 3: 12.92, 4: 8.610, 5: 6.869, 6: 5.959, 7: 5.408, 8: 5.041, 9: 4.781,
        10: 4.587, 11: 4.437, 14: 4.140, 19: 3.883, 29: 3.659}


def interval(values):
    """Returns the mean and the half-width of its 99.9 % interval (NaN for a single value)."""
    mean = statistics.mean(values)
    if len(values) < 2:
        return mean, float("nan")
    t = T999.get(len(values) - 1) or T999[max(k for k in T999 if k <= len(values) - 1)]
    return mean, t * statistics.stdev(values) / math.sqrt(len(values))


def raw(result, key, scale=1.0):
    """The per-iteration values of secondary metric `key` of one JMH result, divided by `scale`."""
    iterations = result["measurementIterations"]
    return [x * iterations / scale for it in result["secondaryMetrics"][key]["rawData"] for x in it]
