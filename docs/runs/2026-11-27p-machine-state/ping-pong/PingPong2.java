import java.util.concurrent.atomic.AtomicLongArray;
public class PingPong2 {
    // a at index 16, b at index 48: 256 bytes apart, far from the array header and from each other
    static final AtomicLongArray x = new AtomicLongArray(64);
    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        Thread t = new Thread(() -> { long v = 0; for (;;) { while (x.get(16) == v) Thread.onSpinWait(); v = x.get(16); x.lazySet(48, v); } });
        t.setDaemon(true); t.start();
        for (int r = 0; r < rounds; r++) {
            long n = 2_000_000, t0 = System.nanoTime();
            long base = (long) r * n;
            for (long i = 1; i <= n; i++) { x.lazySet(16, base + i); while (x.get(48) != base + i) Thread.onSpinWait(); }
            System.out.printf("round-trip %.1f ns%n", (System.nanoTime() - t0) / (double) n);
        }
    }
}
