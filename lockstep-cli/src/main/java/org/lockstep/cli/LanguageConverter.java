package org.lockstep.cli;

import org.lockstep.text.Language;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code --lang}: {@code en}, {@code pt-BR} or {@code es} ({@link Language#ofTag}). */
final class LanguageConverter implements ITypeConverter<Language> {

    @Override
    public Language convert(String value) {
        try {
            return Language.ofTag(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
