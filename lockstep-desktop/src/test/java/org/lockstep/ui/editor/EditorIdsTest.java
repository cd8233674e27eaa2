package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.lockstep.domain.CustomerField;
import org.lockstep.ui.list.ListIds;

/** Node ids have one style, lower camel case (what an FXML fx:id must be), also for the ids made from a field. */
class EditorIdsTest {

    private static final String ONE_STYLE = "[a-z][A-Za-z0-9]*";

    @ParameterizedTest
    @CsvSource({
            "CITY,          city,          cityError,          cityWarning",
            "CREDIT_LIMIT,  creditLimit,   creditLimitError,   creditLimitWarning",
            "CONTACT_NAME,  contactName,   contactNameError,   contactNameWarning",
            "EXTERNAL_REF,  externalRef,   externalRefError,   externalRefWarning",
    })
    void aFieldsIdsAreItsColumnInCamelCase(CustomerField field, String control, String error, String warning) {
        assertThat(EditorIds.field(field)).isEqualTo(control);
        assertThat(EditorIds.fieldError(field)).isEqualTo(error);
        assertThat(EditorIds.fieldWarning(field)).isEqualTo(warning);
    }

    @ParameterizedTest
    @EnumSource(CustomerField.class)
    void everyFieldIsFoundAgainByTheIdOfItsControl(CustomerField field) {
        assertThat(EditorIds.fieldOf(EditorIds.field(field))).contains(field);
        assertThat(EditorIds.field(field)).matches(ONE_STYLE);
    }

    @Test
    void anIdThatIsNoFieldsControlNamesNoField() {
        assertThat(EditorIds.fieldOf(EditorIds.SAVE_BUTTON)).isEmpty();
        assertThat(EditorIds.fieldOf(null)).isEmpty();
    }

    @Test
    void everyIdConstantHasTheOneStyleAndNoTwoAreEqual() {
        List<String> ids = Stream.of(EditorIds.class, ListIds.class)
                .flatMap(c -> Arrays.stream(c.getDeclaredFields()))
                .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == String.class)
                .map(EditorIdsTest::value)
                .toList();
        assertThat(ids).hasSizeGreaterThan(30).allMatch(id -> id.matches(ONE_STYLE)).doesNotHaveDuplicates();
    }

    private static String value(Field constant) {
        try {
            return (String) constant.get(null);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }
}
