package dev.hourglass.redis;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real {@code redis-server} for a test class: started before its first test, stopped after its
 * last. Use as {@code @RegisterExtension static final RedisServerExtension REDIS = new
 * RedisServerExtension();}.
 */
final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback {
    private RedisServerProcess server;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = RedisServerProcess.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
        }
    }

    /** Returns the running server. */
    RedisServerProcess server() {
        if (server == null) {
            throw new IllegalStateException("the server starts before the class's first test");
        }
        return server;
    }
}
