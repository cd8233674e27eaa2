package org.lockstep.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.SignInRefusedException;
import org.lockstep.ui.UiContext;

/**
 * The database opened at launch, while JavaFX starts (issue 30): opened once, before the application asks; handed
 * over, or its failure as it was; shut down when the application never took it.
 */
class EarlyConnectionTest {

    @Test
    void opensOnceBeforeTheApplicationAsksAndHandsTheSameBackendOver() throws Exception {
        AtomicInteger opened = new AtomicInteger();
        CountDownLatch openedAtLaunch = new CountDownLatch(1);
        UiContext.Backend backend = backend(new AtomicInteger());
        EarlyConnection early = EarlyConnection.start(new UiContext("Alice", () -> {
            opened.incrementAndGet();
            openedAtLaunch.countDown();
            return backend;
        }));

        assertThat(openedAtLaunch.await(10, TimeUnit.SECONDS)).as("opened before anyone asked").isTrue();
        assertThat(early.context().connect().call()).isSameAs(backend);
        early.closeIfNeverTaken();
        assertThat(opened).hasValue(1);
        assertThat(early.context().user()).isEqualTo("Alice");
    }

    @Test
    void theApplicationGetsTheContextItWasGivenButForHowItConnects() throws Exception {
        UiContext.SignIn signIn = password -> backend(new AtomicInteger());
        UiContext given = new UiContext("Alice", () -> backend(new AtomicInteger()), true, signIn,
                java.nio.file.Path.of("/tmp/lockstep-data")).editing(7);
        EarlyConnection early = EarlyConnection.start(given);
        try {
            UiContext handed = early.context();
            // lockstep edit 7 opens customer 7: the early connection once dropped it
            assertThat(handed.edit()).hasValue(7);
            assertThat(handed.user()).isEqualTo("Alice");
            assertThat(handed.allowUnsafe()).isTrue();
            assertThat(handed.signIn()).isSameAs(signIn);
            assertThat(handed.dataDir()).isEqualTo(given.dataDir());
        } finally {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(early::isDone);
            early.closeIfNeverTaken();
        }
    }

    @Test
    void aRefusedSignInReachesTheApplicationAsItself() {
        SignInRefusedException refused = new SignInRefusedException("The database server needs a password", "bob",
                false, null);
        EarlyConnection early = EarlyConnection.start(new UiContext("bob", () -> {
            throw refused;
        }));

        assertThat(catchThrowable(() -> early.context().connect().call())).isSameAs(refused);
    }

    @Test
    void aBackendTheApplicationNeverTookIsShutDown() throws Exception {
        AtomicInteger shutdowns = new AtomicInteger();
        EarlyConnection early = EarlyConnection.start(new UiContext("Alice", () -> backend(shutdowns)));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(early::isDone);

        early.closeIfNeverTaken();

        assertThat(shutdowns).hasValue(1);
    }

    private static UiContext.Backend backend(AtomicInteger shutdowns) {
        return new UiContext.Backend(null, null, null, Duration.ofSeconds(60), Duration.ofMinutes(15), null, null, null,
                null, shutdowns::incrementAndGet, null, null, null);
    }
}
