package io.ferry.it;

import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.FreePort;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A real STOMP broker between Ferry's monitoring messages and their consumers: ActiveMQ Artemis embedded in the test's
 * JVM, in memory, its STOMP acceptor on 127.0.0.1 with /topic/ destinations multicast and /queue/ anycast, as the
 * brokers FTS3 publishes to are set up. No authentication.
 */
final class ArtemisStompBroker implements AutoCloseable {

    final int port;
    private final Path data;
    private final EmbeddedActiveMQ server;

    ArtemisStompBroker() throws Exception {
        port = FreePort.find();
        data = Files.createTempDirectory("it-artemis");
        ConfigurationImpl configuration = new ConfigurationImpl();
        configuration.setPersistenceEnabled(false).setSecurityEnabled(false).setJMXManagementEnabled(false)
                .addAcceptorConfiguration("stomp", "tcp://127.0.0.1:" + port + "?protocols=STOMP;anycastPrefix=/queue/;multicastPrefix=/topic/");
        configuration.setBrokerInstance(data.toFile());
        server = new EmbeddedActiveMQ().setConfiguration(configuration);
        server.start();
    }

    /** The subscriptions on an address (without its /topic/ prefix): a STOMP consumer that subscribed is one. */
    int subscribers(String address) throws Exception {
        return server.getActiveMQServer().bindingQuery(SimpleString.of(address)).getQueueNames().size();
    }

    @Override
    public void close() throws Exception {
        server.stop();
        DirectoryTrees.delete(data);
    }
}
