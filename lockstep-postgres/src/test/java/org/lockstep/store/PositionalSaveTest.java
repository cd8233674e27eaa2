package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The JDBC form of the store's save statements: every named parameter becomes one {@code ?}, casts stay. */
class PositionalSaveTest {

    @Test
    void everyNamedParameterOfTheSavesBecomesAPlaceholder() {
        for (String sql : new String[]{CustomerWriteSql.SAVE_SQL, CustomerWriteSql.SAVE_UNDER_LEASE_SQL,
                CustomerWriteSql.OVERWRITE_SQL}) {
            String jdbc = PositionalSave.of(sql).sql();
            assertThat(jdbc).doesNotContainPattern("(?<!:):\\w");
            assertThat(jdbc.chars().filter(ch -> ch == '?').count())
                    .isEqualTo(sql.split("(?<!:):\\w", -1).length - 1L);
        }
    }

    @Test
    void aCastIsNotAParameter() {
        assertThat(PositionalSave.of("SELECT :id::text, :session").sql()).isEqualTo("SELECT ?::text, ?");
    }

    @Test
    void anUnknownParameterIsRefusedWhenTheStatementIsMade() {
        assertThatThrownBy(() -> PositionalSave.of("UPDATE customer SET city = :town WHERE id = :id"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(":town");
    }
}
