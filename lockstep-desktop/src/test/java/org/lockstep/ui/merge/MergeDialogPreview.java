package org.lockstep.ui.merge;

import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.TwoOperators;

/**
 * Opens the merge dialog over a real database with long values, accents and 20-line notes, for a look at it (and the
 * screenshot in docs/screenshots). Run with the test classpath; pass {@code deleted} or {@code delete} for the other
 * dialogs.
 */
public final class MergeDialogPreview {

    /** A 20-line note, as operators keep them. */
    static String notes(String... replacements) {
        List<String> lines = new ArrayList<>(IntStream.rangeClosed(1, 20)
                .mapToObj(i -> "Linha " + i + ": visita técnica em São Paulo, pedido nº " + (4000 + i)
                        + ", condições à vista")
                .toList());
        for (int i = 0; i + 1 < replacements.length; i += 2) {
            lines.set(Integer.parseInt(replacements[i]) - 1, replacements[i + 1]);
        }
        return lines.stream().collect(Collectors.joining("\n"));
    }

    /** The customer Bob loaded: long values with accents. */
    static CustomerData longValues() {
        return aCustomer()
                .with(CustomerField.COMPANY, "Companhia Brasileira de Distribuição — Grupo Pão de Açúcar, Divisão de "
                        + "Importação, Exportação e Logística Internacional Ltda.")
                .with(CustomerField.CONTACT_NAME, "Maria José Gonçalves de Araújo Magalhães")
                .with(CustomerField.ADDRESS, "Avenida Brigadeiro Luís Antônio, 3142 — 12º andar\nJardim Paulista\n"
                        + "Caixa Postal 1.234")
                .with(CustomerField.NOTES, notes())
                .build();
    }

    private MergeDialogPreview() {
    }

    /** The JavaFX application; a nested class, so that the launcher can start it from the class path. */
    public static final class App extends Application {
        @Override
        public void start(Stage owner) {
            String mode = getParameters().getRaw().isEmpty() ? "merge" : getParameters().getRaw().get(0);
            open(owner, mode);
        }
    }

    static void open(Stage owner, String mode) {
        TwoOperators editors = TwoOperators.open();
        FxTaskExecutor executor = new FxTaskExecutor(2);
        Customer base = editors.loaded(aCustomer());
        base = editors.saves(editors.alice(), base.id(), d -> longValues().with(CustomerField.EXTERNAL_REF,
                d.externalRef()));
        long id = base.id();
        owner.setScene(new Scene(new Label("The editor's window"), 400, 200));
        owner.setTitle("Lockstep");
        owner.show();
        CustomerData mine = base.data()
                .with(CustomerField.CITY, "Florianópolis")
                .with(CustomerField.EMAIL, "maria.araujo@gpa-importacao-logistica-internacional.com.br")
                .with(CustomerField.CREDIT_LIMIT, new BigDecimal("250000"))
                .with(CustomerField.NOTES, notes("2", "Linha 2: cliente pediu desconto de 5% — aprovado por João",
                        "18", "Linha 18: entrega combinada para sexta-feira, depósito de Guarulhos"));
        switch (mode) {
            case "deleted" -> {
                editors.alice().customers().delete(id, base.version());
                MergeDialog.open(owner, MergeViewModel.forDeleted(editors.bob().customers(), editors.bob().history(),
                        executor, base, mine));
            }
            case "delete" -> {
                Customer theirs = editors.saves(editors.alice(), id, d -> d.with(CustomerField.CITY, "Ribeirão Preto")
                        .with(CustomerField.NOTES, notes("2", "Linha 2: cliente pediu prazo de 60 dias")));
                DeleteConflictDialog.open(owner,
                        new DeleteConflictViewModel(editors.bob().customers(), editors.bob().history(), executor,
                                base, theirs));
            }
            default -> {
                editors.saves(editors.alice(), id, d -> d.with(CustomerField.CITY, "Ribeirão Preto")
                        .with(CustomerField.PHONE, "+55 (11) 3886-0000 ramal 4321"));
                editors.saves(editors.carol(), id, d -> d.with(CustomerField.CREDIT_LIMIT, new BigDecimal("250000.00"))
                        .with(CustomerField.NOTES, notes("2", "Linha 2: cliente pediu prazo de 60 dias — ver com Inês",
                                "15", "Linha 15: endereço de cobrança mudou para Campinas"))
                        .with(CustomerField.ADDRESS, "Avenida Brigadeiro Luís Antônio, 3142 — 12º andar\n"
                                + "Jardim Paulista, São Paulo — SP\nCaixa Postal 1.234"));
                Customer theirs = editors.read(id);
                MergeViewModel vm = new MergeViewModel(editors.bob().customers(), editors.bob().history(), executor,
                        base, mine, theirs);
                vm.row(CustomerField.CITY).useTheirs();
                MergeDialog.open(owner, vm);
            }
        }
        System.out.println("READY");
    }

    /** @param args "merge" (default), "deleted" or "delete" */
    public static void main(String[] args) {
        Application.launch(App.class, args);
    }
}
