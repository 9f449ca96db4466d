/**
 * The words of business paperwork in the other languages documents commonly arrive in
 * (German, French, Spanish, Italian, Dutch, Portuguese), so that an English question finds
 * a label printed as "Rechnungsdatum", "Facture n°" or "Importe total". Written without
 * accents: tokens are folded to ASCII first (tokenize.ts). General vocabulary of forms,
 * letters and commerce, like the month names of candidates.ts; nothing of one document set.
 */
const TABLE: Record<string, string> = {
  invoice: 'rechnung faktura facture factura fattura factuur fatura nota',
  receipt: 'quittung beleg recu recibo ricevuta kwitantie bon',
  order: 'bestellung auftrag commande pedido ordine bestelling encomenda',
  number: 'nummer nr numero num nro nummero',
  date: 'datum fecha',
  day: 'tag jour dia giorno dag',
  due: 'fallig faellig echeance vencimiento scadenza vervaldatum vencimento',
  total: 'gesamt gesamtbetrag summe endbetrag montant importe totale totaal',
  amount: 'betrag montant importe importo bedrag valor',
  price: 'preis prix precio prezzo prijs preco',
  tax: 'steuer mwst ust tva iva btw imposta impuesto',
  customer: 'kunde kunden client cliente klant',
  seller: 'verkaufer vendeur vendedor venditore verkoper',
  supplier: 'lieferant fournisseur proveedor fornitore leverancier fornecedor',
  name: 'nom nombre nome naam',
  address: 'adresse anschrift direccion indirizzo adres endereco',
  account: 'konto compte cuenta conto rekening conta',
  payment: 'zahlung paiement pago pagamento betaling',
  reference: 'referenz reference referencia riferimento referentie',
  quantity: 'menge anzahl quantite cantidad quantita aantal quantidade',
  description: 'beschreibung bezeichnung designation descripcion descrizione omschrijving descricao',
  contract: 'vertrag contrat contrato contratto contract',
  period: 'zeitraum periode periodo',
  company: 'firma unternehmen societe empresa societa bedrijf',
  // "Re:" heads the subject line of English letters too.
  subject: 're betreff objet asunto oggetto onderwerp assunto',
  // "cc:" heads the list of those a letter is copied to (a carbon copy), in every language.
  copy: 'cc bcc kopie copie copia',
};

const EQUIVALENTS = new Map<string, string[]>();
const FOREIGN = new Set<string>();
const ENGLISH = new Map<string, string>();
for (const [english, words] of Object.entries(TABLE)) {
  const forms = words.split(' ');
  EQUIVALENTS.set(english, forms);
  for (const f of forms) {
    FOREIGN.add(f);
    if (!ENGLISH.has(f) && f !== english) ENGLISH.set(f, english);
  }
  // Compounds borrow English words too ("Ordernummer").
  FOREIGN.add(english);
}

/** Each form word of another language with the English word it stands for ("vervaldatum", "due"). */
export function foreignWords(): ReadonlyMap<string, string> {
  return ENGLISH;
}

/** The English words the table translates. */
export function englishWords(): readonly string[] {
  return [...EQUIVALENTS.keys()];
}

/** The other languages' words for an English word (unstemmed, as the table holds them). */
export function translationsOf(englishWord: string): readonly string[] {
  return EQUIVALENTS.get(englishWord) ?? [];
}

/** German and Dutch glue words into one ("Rechnungsdatum", "Kundennr"): the parts, or null. */
export function compoundParts(token: string): string[] | null {
  if (token.length < 7 || FOREIGN.has(token)) return null;
  for (let cut = token.length - 2; cut >= 4; cut--) {
    const head = token.slice(0, cut);
    const tail = token.slice(cut);
    if (!FOREIGN.has(tail)) continue;
    // The linking letters of German compounds: Rechnung-s-datum, Kunde-n-nummer.
    for (const link of ['', 's', 'n', 'en', 'es']) {
      if (link && !head.endsWith(link)) continue;
      const stemHead = link ? head.slice(0, head.length - link.length) : head;
      if (FOREIGN.has(stemHead)) return [stemHead, tail];
    }
  }
  return null;
}
