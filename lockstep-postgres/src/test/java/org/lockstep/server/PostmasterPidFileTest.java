package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * When a process's start matches the start time a {@code postmaster.pid} gives: the postmaster is forked before it
 * writes that time, so it may have started long before it (a loaded machine) but never after it, beyond the whole
 * seconds both clocks are read in. This process stands in for the postmaster; its real start is read from the kernel.
 */
class PostmasterPidFileTest {

    @ParameterizedTest(name = "file says {0} s after the process started: trusted {1}")
    @CsvSource(textBlock = """
            # the file's time is truncated to the second and the boot time too: either side of the start by a second
            0,    true
            1,    true
            -1,   true
            # a loaded machine: the postmaster wrote its start seconds after it was forked
            4,    true
            45,   true
            # the process started after the file: it took the pid once the file's postmaster was gone
            -4,   false
            -3600, false
            # a file from another clock, far ahead of any process that could hold the pid
            3600, false
            """)
    void aProcessIsThePostmasterOnlyIfItStartedNoLaterThanTheFileSays(long fileAfterProcessSeconds, boolean trusted) {
        ProcessHandle self = ProcessHandle.current();
        Instant started = self.info().startInstant().orElseThrow();

        Instant fileStart = started.plus(Duration.ofSeconds(fileAfterProcessSeconds));

        assertThat(PostmasterPidFile.startedAt(self.pid(), fileStart)).isEqualTo(trusted);
    }

    @Test
    void aProcessListensOnThePortOnlyWhileItHoldsThatListeningSocket() throws Exception {
        long self = ProcessHandle.current().pid();
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
            assertThat(PostmasterPidFile.listensOn(self, port)).isTrue();
            // a process that holds no such socket: the parent shell of this test run never opened this port
            long parent = ProcessHandle.current().parent().orElseThrow().pid();
            assertThat(PostmasterPidFile.listensOn(parent, port)).isFalse();
        }
        assertThat(PostmasterPidFile.listensOn(self, port)).isFalse();
    }
}
