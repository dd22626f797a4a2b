package dev.hourglass.queue;

/**
 * Sixty-four bytes ahead of a queue's own fields, so that they never share a cache line with the
 * object the memory before them holds. A queue's driver writes its size on every schedule and
 * cancel, and in a thread-safe timer the object before the queue can be the driver itself (where
 * a garbage collector copied the two together), which every caller reads on every call: one line
 * then passed between two cores on each operation, and both threads ran slower, the timer thread
 * several times, in some runs and not others (docs/driver-targets.md, run K). Only the lead is
 * padded, which removed the slow runs of run K's measurement at 10,000 and 30,000 pending, though
 * not from every run since (run M); the object after a queue may still share the line that holds
 * the queue's last fields.
 *
 * <p>Bytes rather than longs: the JVM packs bytes with no gap, where a gap before the first long
 * could take a subclass field and put it in front of the padding (the field layout of JDK 15 and
 * later fills such gaps).
 */
@SuppressWarnings("unused") // read by no one: the fields only take up room
abstract class CacheLinePad {
    byte p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
    byte p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31;
    byte p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45, p46, p47;
    byte p48, p49, p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p60, p61, p62, p63;
}
