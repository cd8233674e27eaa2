package org.lockstep.synthetic;

import java.math.BigDecimal;
import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import net.datafaker.Faker;
import net.datafaker.service.RandomService;
import org.lockstep.domain.CustomerData;

/**
 * Realistic synthetic customers from Datafaker, across many locales, for trying Lockstep at scale
 * ({@code lockstep-bench generate}, {@code lockstep-bench list}). Row {@code n} of seed {@code s} is a pure function of
 * {@code (s, n)}: the random generator is reseeded for every row, so rows come out the same whatever order,
 * batch or thread makes them, and its external ref {@code GEN-s-n} names it.
 *
 * <p>Within a row the values agree with each other: the country, region, city, postal code and phone follow the
 * row's locale; the email is made from the contact's name and the company's web domain (or a free-mail domain
 * of that country). Every row passes {@link org.lockstep.domain.CustomerValidator}.
 *
 * <p>An instance is not thread-safe (Datafaker's {@link Faker} is not): give each producing thread its own.
 */
public final class SyntheticCustomers {

    /** Digits of the row number in an external ref: room for a billion rows per seed, and refs sort by number. */
    static final int REF_DIGITS = 10;

    private static final Pattern NOT_DOMAIN_CHAR = Pattern.compile("[^a-z0-9]");
    private static final Pattern COMBINING_MARKS = Pattern.compile("\\p{M}+");
    private static final List<String> ROLE_MAILBOXES = List.of("info", "sales", "office", "purchasing", "contact");
    private static final List<String> NOTES = List.of(
            "Prefers invoices by email.",
            "Pays by bank transfer within 30 days.",
            "Deliveries on weekdays before noon only.",
            "Key account: quarterly review with the sales lead.",
            "Asked for a price list in their own language.",
            "Ships to a separate warehouse address; confirm by phone.");

    private static final Set<String> LEGAL_FORMS_AND_JOINERS = Set.of("and", "und", "et", "och", "og", "the",
            "inc", "llc", "ltd", "plc", "group", "sons", "gmbh", "sas", "sarl", "eurl", "ltda", "spa", "srl", "sro",
            "aktiebolag", "asociados", "figli");
    private static final Map<String, String> JAPANESE_TRADES = Map.ofEntries(Map.entry("水産", "suisan"),
            Map.entry("農林", "norin"), Map.entry("鉱業", "kogyo"), Map.entry("建設", "kensetsu"),
            Map.entry("食品", "shokuhin"), Map.entry("印刷", "insatsu"), Map.entry("電気", "denki"),
            Map.entry("ガス", "gas"), Map.entry("情報", "joho"), Map.entry("通信", "tsushin"),
            Map.entry("運輸", "unyu"), Map.entry("銀行", "ginko"), Map.entry("保険", "hoken"));

    private final long seed;
    private final Random random = new Random();
    private final List<Market> markets;

    /** @param seed selects one reproducible set of customers */
    public SyntheticCustomers(long seed) {
        this.seed = seed;
        RandomService randomService = new RandomService(random);
        this.markets = Market.ALL.stream().map(m -> m.withFaker(new Faker(m.locale(), randomService))).toList();
    }

    /** The seed this generator was made with. */
    public long seed() {
        return seed;
    }

    /** The external ref of row {@code n} of a seed: {@code GEN-<seed>-<n, zero-padded>}; unique per (seed, n). */
    public static String externalRef(long seed, long n) {
        return externalRefPrefix(seed) + String.format("%0" + REF_DIGITS + "d", n);
    }

    /** The part of {@link #externalRef} shared by every row of a seed. */
    public static String externalRefPrefix(long seed) {
        return "GEN-" + seed + "-";
    }

    /**
     * Row {@code n} (from 1) of this generator's seed.
     *
     * @return normalized values that pass {@link org.lockstep.domain.CustomerValidator}
     */
    public CustomerData customer(long n) {
        random.setSeed(mix(seed, n));
        Market m = pick();
        Faker f = m.faker();
        String first = f.name().firstName();
        String last = f.name().lastName();
        String contact = m.familyNameFirst() ? last + " " + first : first + " " + last;
        String company = f.company().name();
        String domain = random.nextInt(100) < 15 ? m.freeMail() : webDomain(company, m);
        String email = mailbox(first, last) + "@" + domain;
        String street = m.japanese()
                ? f.address().city() + " " + (1 + random.nextInt(9)) + "-" + (1 + random.nextInt(30)) + "-"
                        + (1 + random.nextInt(20))
                : f.address().streetAddress();
        String address =
                !m.japanese() && random.nextInt(100) < 25 ? street + "\n" + f.address().secondaryAddress() : street;
        String fax = random.nextInt(100) < 10 ? f.phoneNumber().phoneNumber() : null;
        String notes = random.nextInt(100) < 20 ? note(f) : null;
        BigDecimal credit = random.nextInt(100) < 10 ? null
                : BigDecimal.valueOf(500L * (1 + random.nextInt(500))).setScale(2);
        return new CustomerData(
                externalRef(seed, n),
                clip(company, 160),
                clip(contact, 120),
                clip(f.job().title(), 80),
                clip(email, 254),
                clip(f.phoneNumber().phoneNumber(), 40),
                fax == null ? null : clip(fax, 40),
                clip(address, 500),
                clip(f.address().city(), 80),
                m.hasRegions() ? clip(f.address().state(), 80) : null,
                clip(f.address().zipCode(), 20),
                m.country(),
                notes,
                credit).normalized();
    }

    private Market pick() {
        int r = random.nextInt(Market.TOTAL_WEIGHT);
        for (Market m : markets) {
            r -= m.weight();
            if (r < 0) {
                return m;
            }
        }
        throw new IllegalStateException("market weights do not add up");
    }

    private String mailbox(String first, String last) {
        String f = ascii(first);
        String l = ascii(last);
        if (f.isEmpty() || l.isEmpty()) {
            // Names in scripts without a Latin spelling here (Japanese): a role mailbox, as many firms use.
            return ROLE_MAILBOXES.get(random.nextInt(ROLE_MAILBOXES.size())) + (1 + random.nextInt(99));
        }
        return switch (random.nextInt(4)) {
            case 0 -> f + "." + l;
            case 1 -> f.charAt(0) + "." + l;
            case 2 -> f + l.charAt(0);
            default -> f + "_" + l;
        };
    }

    private String webDomain(String company, Market m) {
        StringBuilder name = new StringBuilder();
        for (String word : company.split("[\\s,&.-]+")) {
            String w = ascii(word);
            if (w.length() > 2 && !LEGAL_FORMS_AND_JOINERS.contains(w) && name.length() < 12) {
                name.append(name.length() == 0 ? "" : "-").append(w);
            }
        }
        if (name.length() == 0) {
            // Japanese company names have no Latin letters: use the romanized line of business, as many firms do.
            String trade = JAPANESE_TRADES.entrySet().stream().filter(e -> company.contains(e.getKey()))
                    .map(Map.Entry::getValue).findFirst().orElse("kaisha");
            name.append(trade).append('-').append(1 + random.nextInt(999));
        }
        return name + "." + m.topLevelDomain();
    }

    private String note(Faker f) {
        return switch (random.nextInt(NOTES.size() + 2)) {
            case 0 -> "Ask for " + f.name().fullName() + " in purchasing.";
            case 1 -> "Customer since " + (1995 + random.nextInt(30)) + "; moved from " + f.address().city() + ".";
            default -> NOTES.get(random.nextInt(NOTES.size()));
        };
    }

    /** Lower-case ASCII letters and digits of a name, accents removed ("Müller" → "muller", "Łukasz" → "lukasz"). */
    static String ascii(String s) {
        String folded = s.toLowerCase(Locale.ROOT).replace("ß", "ss").replace("æ", "ae").replace("œ", "oe")
                .replace("ø", "o").replace("ł", "l").replace("đ", "d").replace("þ", "th");
        folded = COMBINING_MARKS.matcher(Normalizer.normalize(folded, Normalizer.Form.NFD)).replaceAll("");
        return NOT_DOMAIN_CHAR.matcher(folded).replaceAll("");
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max).strip();
    }

    /** SplitMix64's finalizer: nearby (seed, n) pairs give unrelated random streams. */
    static long mix(long seed, long n) {
        long z = seed * 0x9E3779B97F4A7C15L + n;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
