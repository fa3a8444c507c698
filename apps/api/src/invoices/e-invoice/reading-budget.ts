/**
 * An upload is refused because reading it would cost more than the portal spends on one file: a PDF built
 * to inflate (a decompression bomb), an XML too big or too nested to hold, or a file that needs more memory
 * or time than one read may take. Unlike a PDF that is merely unreadable (kept as a plain PDF with a
 * warning), such a file is refused whole: it is how an attack looks, and storing it would only pass it on.
 */
export class ReadingBudgetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReadingBudgetError';
  }
}
