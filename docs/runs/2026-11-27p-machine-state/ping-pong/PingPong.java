import java.util.concurrent.atomic.AtomicLong;
public class PingPong {
    static final AtomicLong a = new AtomicLong(), b = new AtomicLong();
    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        Thread t = new Thread(() -> { long v = 0; for (;;) { while (a.get() == v) Thread.onSpinWait(); v = a.get(); b.lazySet(v); if (v < 0) return; } });
        t.setDaemon(true); t.start();
        for (int r = 0; r < rounds; r++) {
            long n = 2_000_000, t0 = System.nanoTime();
            long base = (long) r * n;
            for (long i = 1; i <= n; i++) { a.lazySet(base + i); while (b.get() != base + i) Thread.onSpinWait(); }
            System.out.printf("round-trip %.1f ns%n", (System.nanoTime() - t0) / (double) n);
        }
    }
}
