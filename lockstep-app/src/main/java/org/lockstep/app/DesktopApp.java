package org.lockstep.app;

import org.lockstep.client.StoreClient;
import org.lockstep.server.CacheWarmUp;
import org.lockstep.server.Database;
import org.lockstep.server.PostgresClient;
import org.lockstep.cli.Desktop;
import org.lockstep.cli.ExitCodes;
import org.lockstep.config.LockstepConfig;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import org.lockstep.shell.DemoApplication;
import org.lockstep.shell.LockstepApplication;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;
import org.lockstep.ui.DemoClients;
import org.lockstep.ui.LanguageChoice;
import org.lockstep.ui.UiContext;
import org.lockstep.ui.demo.DemoScreens;

/**
 * The desktop behind the command line: hands the UI the operator's name and a way to open the database (the UI calls
 * it off the FX thread while it shows that the database is starting). {@link #openDemo} opens the trainer demo.
 */
public final class DesktopApp implements Desktop {

    @Override
    public int openEditor(LockstepConfig config, Duration demoLeaseTtl, Optional<Language> lang) {
        return launch(context(config, demoLeaseTtl, lang));
    }

    @Override
    public int openEditor(LockstepConfig config, Duration demoLeaseTtl, Optional<Language> lang, long customerId) {
        return launch(context(config, demoLeaseTtl, lang).editing(customerId));
    }

    /** The desktop's context for {@code config}, with the locale and language it asks for in use. */
    private static UiContext context(LockstepConfig config, Duration demoLeaseTtl, Optional<Language> lang) {
        useLocale(config);
        useLanguage(lang);
        // A team server's login whose password came from nowhere: the desktop asks for it (never the embedded one's).
        UiContext.SignIn signIn = config.dbUrl().isPresent() ? password -> backend(config, demoLeaseTtl, password)
                : null;
        return new UiContext(config.user(), () -> backend(config, demoLeaseTtl, null), config.allowUnsafe(), signIn,
                config.dataDir());
    }

    private static int launch(UiContext context) {
        return LockstepApplication.launch(context) == LockstepApplication.OK ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** Opens the database (with the password typed at sign-in, or {@code null}) and the client on it. */
    private static UiContext.Backend backend(LockstepConfig config, Duration demoLeaseTtl, String password) {
        Database db = Database.open(config, "Lockstep", true, password);
        // The list's indexes and table into the server's cache while the window opens (issue 29; never waited for).
        CacheWarmUp warmUp = CacheWarmUp.start(db);
        StoreClient store = PostgresClient.of(db, config.user(), () -> {
            warmUp.close();
            db.closeAndStopIfLast();
        });
        return UiContext.Backend.of(store, config.leaseTtl(), config.lockIdle(), demoBeside(config, demoLeaseTtl,
                password));
    }

    /**
     * Tools → Trainer demo's clients: of the demo's own database, opened when the demo opens and closed with it, never
     * the operators' database the editor works on (issue 27; {@link Database#openDemo}).
     *
     * @param password the password typed at sign-in, or {@code null}
     */
    static DemoClients demoBeside(LockstepConfig config, Duration demoLeaseTtl, String password) {
        return DemoClients.onItsOwnDatabase(() -> trainer(Database.openDemo(config, "Lockstep demo", password), config,
                Database::close), demoLeaseTtl, config.lockIdle());
    }

    /**
     * {@code lockstep demo}'s database, opened at once (the demo's splash waits for it): the demo's own, never the
     * operators' ({@link Database#openDemo}). Its shutdown stops the embedded server when no other client uses it.
     */
    static DemoApplication.Opened openDemoDatabase(LockstepConfig config, Duration leaseTtl) {
        Database db = Database.openDemo(config, "Lockstep demo", null);
        // The trainer's own client only resets the demo's customers; Alice and Bob get clients of their own.
        StoreClient trainer = trainer(db, config, d -> {});
        return new DemoApplication.Opened(DemoClients.over(trainer, leaseTtl, config.lockIdle()),
                db::closeAndStopIfLast);
    }

    /** The trainer's client of the demo's database; {@code close} says what closing it does to {@code db}. */
    private static StoreClient trainer(Database db, LockstepConfig config,
            java.util.function.Consumer<Database> close) {
        try {
            return PostgresClient.of(db, config.user(), () -> close.accept(db));
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
    }

    @Override
    public int openDemo(LockstepConfig config, Duration leaseTtl, Optional<Language> lang, OptionalInt trainerScreen) {
        trainerScreen.ifPresent(DemoScreens::useTrainerScreen);
        useLocale(config);
        useLanguage(lang);
        int code = DemoApplication.launch(() -> openDemoDatabase(config, leaseTtl));
        return code == DemoApplication.OK ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /**
     * A {@code --locale} given replaces the operating system's format locale for this process, which is the one the
     * editor reads and shows numbers in ({@link org.lockstep.ui.EditorLocale}).
     */
    private static void useLocale(LockstepConfig config) {
        config.locale().ifPresent(l -> Locale.setDefault(Locale.Category.FORMAT, l));
    }

    /**
     * The windows speak the {@code --lang} given, else the language chosen in View → Language ({@link LanguageChoice}),
     * else the operating system's display language ({@code LANG} on Linux) when Lockstep speaks it, else English. The
     * command line never comes here, so it stays English.
     */
    private static void useLanguage(Optional<Language> lang) {
        speak(LanguageChoice.operators().choose(lang, Locale.getDefault(Locale.Category.DISPLAY)));
    }

    /**
     * Makes {@code language} the windows' language: Lockstep's own texts, and JavaFX's built-in ones (an alert's
     * "Error" or "Confirmation" title, its OK and Cancel buttons, a text field's Cut/Copy/Paste menu), which JavaFX
     * reads from the process's default locale; without this, {@code --lang pt-BR} on an English system showed
     * "Cancel" beside "Salvar", and View → Language English on a Spanish system showed "Cancelar". The format locale
     * (how the editor reads and shows numbers, {@code --locale}) is kept as it was.
     *
     * @param language the language the windows speak for the rest of the run
     */
    static void speak(Language language) {
        Texts.use(language);
        Locale format = Locale.getDefault(Locale.Category.FORMAT);
        Locale.setDefault(language.locale());
        Locale.setDefault(Locale.Category.FORMAT, format);
    }
}
