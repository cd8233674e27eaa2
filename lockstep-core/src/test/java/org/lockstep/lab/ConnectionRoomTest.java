package org.lockstep.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A lab run fits the connections the server has free, or is refused saying how many are free and why. */
class ConnectionRoomTest {

    static final String WHY = "max_connections is 100: 3 reserved for superusers, 90 in use";

    @ParameterizedTest(name = "{0} free, {1} workers")
    @CsvSource(delimiter = '|', textBlock = """
            7 | 8   | 8 workers need 8 database connections, but only 7 are free (WHY); run with 7 workers or fewer. Nothing ran.
            1 | 2   | 2 workers need 2 database connections, but only 1 is free (WHY); run with 1 worker. Nothing ran.
            0 | 1   | 1 worker needs 1 database connection, but none is free (WHY); wait for other clients to disconnect. Nothing ran.
            7 | 500 | 500 workers need 500 database connections, but only 7 are free (WHY); run with 7 workers or fewer. Nothing ran.
            """)
    void aRunThatDoesNotFitIsRefusedWithTheNumbers(int free, int workers, String message) {
        ConnectionRoom room = new ConnectionRoom(free, WHY);

        IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> room.require(workers));

        assertThat(refused.getMessage()).isEqualTo(message.replace("WHY", WHY));
    }

    @ParameterizedTest(name = "{0} free, {1} workers")
    @CsvSource(textBlock = """
            8, 8
            8, 1
            2147483647, 500
            """)
    void aRunThatFitsGoesAhead(int free, int workers) {
        assertThatCode(() -> new ConnectionRoom(free, WHY).require(workers)).doesNotThrowAnyException();
    }
}
