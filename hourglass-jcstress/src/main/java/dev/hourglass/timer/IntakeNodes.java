package dev.hourglass.timer;

/** Nodes for the intake's tests, named by their task, and the names of a taken list. */
final class IntakeNodes {

    private IntakeNodes() {}

    static TimeoutNode node(String name) {
        return new TimeoutNode(null, null, name, 0, TimeoutNode.PENDING);
    }

    /** The names of a list returned by {@link Intake#takeAll()}, in its order, space-separated. */
    static String names(TimeoutNode first) {
        StringBuilder names = new StringBuilder();
        for (TimeoutNode node = first; node != null; ) {
            names.append(names.length() == 0 ? "" : " ").append(node.task());
            node = Intake.next(node);
        }
        return names.toString();
    }
}
