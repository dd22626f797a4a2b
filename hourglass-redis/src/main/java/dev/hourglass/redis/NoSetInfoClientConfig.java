package dev.hourglass.redis;

import java.util.function.Supplier;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocketFactory;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.HostAndPortMapper;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisCredentials;
import redis.clients.jedis.RedisProtocol;

/**
 * The user's client configuration with Jedis's {@code CLIENT SETINFO} turned off: Redis before 7.2
 * answers it with an error on every new connection, and the library name it sets is only
 * informational.
 *
 * <p>Complexity: O(1). Ordering: not applicable. Thread-safety: as thread-safe as the delegate.
 */
final class NoSetInfoClientConfig implements JedisClientConfig {
    private final JedisClientConfig delegate;

    NoSetInfoClientConfig(JedisClientConfig delegate) {
        this.delegate = delegate;
    }

    @Override
    public ClientSetInfoConfig getClientSetInfoConfig() {
        return ClientSetInfoConfig.DISABLED;
    }

    @Override
    public RedisProtocol getRedisProtocol() {
        return delegate.getRedisProtocol();
    }

    @Override
    public int getConnectionTimeoutMillis() {
        return delegate.getConnectionTimeoutMillis();
    }

    @Override
    public int getSocketTimeoutMillis() {
        return delegate.getSocketTimeoutMillis();
    }

    @Override
    public int getBlockingSocketTimeoutMillis() {
        return delegate.getBlockingSocketTimeoutMillis();
    }

    @Override
    public String getUser() {
        return delegate.getUser();
    }

    @Override
    public String getPassword() {
        return delegate.getPassword();
    }

    @Override
    public Supplier<RedisCredentials> getCredentialsProvider() {
        return delegate.getCredentialsProvider();
    }

    @Override
    public int getDatabase() {
        return delegate.getDatabase();
    }

    @Override
    public String getClientName() {
        return delegate.getClientName();
    }

    @Override
    public boolean isSsl() {
        return delegate.isSsl();
    }

    @Override
    public SSLSocketFactory getSslSocketFactory() {
        return delegate.getSslSocketFactory();
    }

    @Override
    public SSLParameters getSslParameters() {
        return delegate.getSslParameters();
    }

    @Override
    public HostnameVerifier getHostnameVerifier() {
        return delegate.getHostnameVerifier();
    }

    @Override
    public HostAndPortMapper getHostAndPortMapper() {
        return delegate.getHostAndPortMapper();
    }

    @Override
    public boolean isReadOnlyForRedisClusterReplicas() {
        return delegate.isReadOnlyForRedisClusterReplicas();
    }
}
