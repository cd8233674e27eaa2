package org.lockstep.synthetic;

import java.util.List;
import java.util.Locale;
import net.datafaker.Faker;

/**
 * A country that synthetic customers come from: its Datafaker locale, how often it occurs, and the details Datafaker
 * leaves out (the country's own name is taken from the locale, so it always matches the address).
 *
 * @param weight          relative frequency among all markets
 * @param topLevelDomain  for company web domains, e.g. "de", "com.br"
 * @param freeMail        a common free-mail domain of the country
 * @param hasRegions      whether Datafaker knows the country's regions (states, provinces, cantons)
 * @param familyNameFirst whether names are written family name first
 * @param faker           the Faker for this locale, or {@code null} in the shared list {@link #ALL}
 */
record Market(Locale locale, int weight, String topLevelDomain, String freeMail, boolean hasRegions,
        boolean familyNameFirst, Faker faker) {

    static final List<Market> ALL = List.of(
            of("en-US", 20, "com", "gmail.com"),
            of("en-GB", 6, "co.uk", "btinternet.com").withoutRegions(),
            of("en-CA", 3, "ca", "gmail.com"),
            of("en-AU", 3, "com.au", "bigpond.com"),
            of("de-DE", 10, "de", "web.de"),
            of("de-AT", 2, "at", "gmx.at"),
            of("de-CH", 2, "ch", "bluewin.ch"),
            of("fr-FR", 8, "fr", "orange.fr"),
            of("pt-BR", 7, "com.br", "uol.com.br"),
            of("es-ES", 6, "es", "telefonica.net"),
            of("es-MX", 3, "com.mx", "prodigy.net.mx"),
            of("it-IT", 6, "it", "libero.it"),
            of("nl-NL", 4, "nl", "ziggo.nl"),
            of("pl-PL", 4, "pl", "wp.pl"),
            of("sv-SE", 3, "se", "telia.com"),
            of("da-DK", 2, "dk", "mail.dk"),
            of("nb-NO", 2, "no", "online.no"),
            of("fi-FI", 2, "fi", "luukku.com"),
            of("cs-CZ", 2, "cz", "seznam.cz"),
            of("ja-JP", 5, "co.jp", "yahoo.co.jp").namesFamilyFirst());

    static final int TOTAL_WEIGHT = ALL.stream().mapToInt(Market::weight).sum();

    private static Market of(String tag, int weight, String tld, String freeMail) {
        return new Market(Locale.forLanguageTag(tag), weight, tld, freeMail, true, false, null);
    }

    private Market withoutRegions() {
        return new Market(locale, weight, topLevelDomain, freeMail, false, familyNameFirst, faker);
    }

    private Market namesFamilyFirst() {
        return new Market(locale, weight, topLevelDomain, freeMail, hasRegions, true, faker);
    }

    Market withFaker(Faker f) {
        return new Market(locale, weight, topLevelDomain, freeMail, hasRegions, familyNameFirst, f);
    }

    /** The country's English name, as the sample data writes it ("Germany", "Brazil"). */
    String country() {
        return locale.getDisplayCountry(Locale.ENGLISH);
    }

    boolean japanese() {
        return "JP".equals(locale.getCountry());
    }
}
