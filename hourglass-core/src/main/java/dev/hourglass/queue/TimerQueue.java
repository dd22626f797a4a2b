package dev.hourglass.queue;

import java.util.function.Consumer;

/**
 * A single-threaded queue of timers ordered by deadline: the structure a timer driver polls. One
 * interface, many structures (lists, a red-black tree, heaps, a skip list, timing wheels), made by
 * {@link TimerQueues} and interchangeable with one line.
 *
 * <p>Time: deadlines and {@code now} are signed 64-bit nanoseconds read like {@link
 * System#nanoTime()} values and compared by subtraction, so they may be negative and may wrap past
 * {@code Long.MAX_VALUE}. A queue never reads a clock: the caller passes {@code now} to {@link
 * #poll}. Every deadline is read relative to the queue's {@link #time()}, so a pending deadline
 * must lie within {@code Long.MAX_VALUE} nanoseconds of it (about 292 years either way), also after
 * a poll moves the time on (so a poll that leaves due timers pending, stopped by its limit, must
 * not land more than that past them); a deadline of {@code time() + Long.MAX_VALUE} is fine. A
 * wheel's current tick may lag the time by more than {@code Long.MAX_VALUE} after such polls and
 * cancels; that changes nothing.
 *
 * <p>The contract every implementation keeps:
 *
 * <ul>
 *   <li><b>Never early.</b> {@code poll(now, ...)} delivers a timer only if {@code now} is at or
 *       after its deadline.
 *   <li><b>Prompt.</b> An exact structure ({@link #tick()} is 1) delivers a timer at the first poll
 *       whose {@code now} is at or after its deadline. A wheel with tick {@code t} delivers it at
 *       the first poll whose {@code now} is at or after the deadline rounded up to the next tick
 *       boundary (boundaries lie at {@code startTime + k * t}): at most one tick late, never early.
 *       A poll that stops at its limit delivers the rest at the next poll.
 *   <li><b>Ordered.</b> Exact structures deliver in (deadline, insertion) order, where a
 *       reschedule counts as a new insertion. Wheels deliver in tick order; a timer whose rounded
 *       deadline has already been reached when it is scheduled belongs to the wheel's current tick.
 *       Within one tick each wheel documents its order.
 *   <li><b>Handles.</b> {@link #cancel} returns true only when it removed a pending timer. {@link
 *       #reschedule} keeps the handle and allocates nothing.
 *   <li><b>Re-entrant.</b> The consumer given to {@link #poll} may schedule, cancel and reschedule
 *       on the same queue, including the timer it is handling, which it may re-arm with {@link
 *       #reschedule} (a periodic timer costs no garbage). A timer made due from inside the consumer
 *       is delivered by the same poll if the limit allows.
 *   <li><b>Bad input</b> gets an exception that names the argument and its value, and a failed call
 *       leaves the queue unchanged.
 * </ul>
 *
 * <p>Complexity: per structure, stated by each {@link TimerQueues} factory method; {@link #size()},
 * {@link #time()} and {@link #tick()} are O(1) everywhere.
 *
 * <p>Thread-safety: none. One thread owns a queue; drivers make it safe to use from any thread.
 *
 * @param <T> the payload type
 */
public interface TimerQueue<T> {

    /**
     * Adds a timer.
     *
     * @param deadline when it is due, in nanoseconds; a deadline already reached is due at the next
     *     poll
     * @param payload what the timer carries, not null
     * @return the handle that cancels or reschedules the timer
     * @throws NullPointerException if {@code payload} is null
     * @throws IllegalArgumentException if the structure has a bounded range and {@code deadline}
     *     lies beyond it
     * @throws IllegalStateException if the queue has reached its maximum size
     */
    TimerHandle<T> schedule(long deadline, T payload);

    /**
     * Removes a pending timer so that it is never delivered.
     *
     * @param handle a handle returned by this queue
     * @return true if the timer was pending and is now removed; false if it was already delivered,
     *     cancelled or cleared
     * @throws NullPointerException if {@code handle} is null
     * @throws IllegalArgumentException if {@code handle} belongs to another queue
     */
    boolean cancel(TimerHandle<T> handle);

    /**
     * Moves a pending timer to a new deadline, keeping its handle and allocating nothing. It counts
     * as a new insertion for ordering. Inside {@link #poll}'s consumer it also re-arms the timer
     * being delivered.
     *
     * @param handle a pending handle of this queue, or the handle being delivered by the current
     *     poll
     * @param deadline the new deadline in nanoseconds
     * @throws NullPointerException if {@code handle} is null
     * @throws IllegalArgumentException if {@code handle} belongs to another queue, or the structure
     *     has a bounded range and {@code deadline} lies beyond it
     * @throws IllegalStateException if {@code handle} is stale: delivered, cancelled or cleared
     *     (and not the one being delivered)
     */
    void reschedule(TimerHandle<T> handle, long deadline);

    /**
     * Returns the earliest time at which {@link #poll} would deliver a timer: the earliest deadline
     * for an exact structure, that deadline rounded up to its tick boundary for a wheel. A value at
     * or before {@link #time()} means a timer is due now.
     *
     * <p>An empty queue returns {@code time() + Long.MAX_VALUE}: no delivery before the furthest
     * time the queue can express, so a driver may sleep as long as it likes (a timer due that far
     * out reads the same; {@link #isEmpty()} tells them apart). It never throws and allocates
     * nothing, so a loop may call it before every sleep without checking {@link #isEmpty()} first.
     *
     * @return the time of the next delivery, in nanoseconds; {@code time() + Long.MAX_VALUE} if the
     *     queue is empty
     */
    long nextDeadline();

    /**
     * Delivers due timers to {@code consumer}, in the order the contract states, and moves the
     * queue's time to {@code now}. Each timer is removed (no longer pending) before the consumer
     * sees it.
     *
     * @param now the current time in nanoseconds, not before {@link #time()}
     * @param consumer receives each due timer; may call schedule, cancel and reschedule on this
     *     queue
     * @param limit the most timers to deliver, at least 0
     * @return how many timers were delivered
     * @throws NullPointerException if {@code consumer} is null
     * @throws IllegalArgumentException if {@code limit} is negative or {@code now} is before {@link
     *     #time()}
     * @throws IllegalStateException if called from inside a poll or clear of the same queue
     */
    int poll(long now, Consumer<? super TimerHandle<T>> consumer, int limit);

    /**
     * Removes every pending timer without delivering it as due, handing each to {@code consumer}
     * in no particular order (a driver's close returns them as the timers that never ran). Every
     * timer is handed over even if the consumer throws; the first exception is rethrown afterwards.
     *
     * @param consumer receives each removed timer, already no longer pending
     * @return how many timers were removed
     * @throws NullPointerException if {@code consumer} is null
     * @throws IllegalStateException if called from inside a poll or clear of the same queue
     */
    int clear(Consumer<? super TimerHandle<T>> consumer);

    /**
     * Returns the latest deadline the queue accepts now. Unbounded structures accept any deadline
     * up to {@code time() + Long.MAX_VALUE}; a bounded one (the simple wheel) accepts deadlines up
     * to the end of its range, counted from its current tick. A driver arms a timer at the horizon
     * and moves it on when it comes due, so no delay is ever refused.
     *
     * @return the furthest acceptable deadline, in nanoseconds
     */
    long horizon();

    /**
     * Returns how many timers are pending.
     *
     * @return the number of pending timers
     */
    int size();

    /**
     * Tells whether no timer is pending.
     *
     * @return true if {@link #size()} is 0
     */
    default boolean isEmpty() {
        return size() == 0;
    }

    /**
     * Returns the queue's time: the {@code now} of the latest poll, or the start time before any.
     *
     * @return the queue's time in nanoseconds
     */
    long time();

    /**
     * Returns the tick in nanoseconds: 1 for exact structures, the slot width for wheels.
     *
     * @return the tick, at least 1
     */
    long tick();
}
