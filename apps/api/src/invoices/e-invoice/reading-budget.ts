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

/**
 * The one byte budget of one upload: every byte any decoder makes from it (a PDF's object and
 * cross-reference streams, its attached files, every stream its visible text is read from) and every byte of
 * page content read again where a page or form draws the same content more than once. A bomb may hide on any
 * of these paths; counted together, none of them can spend what another saved.
 */
export class ByteBudget {
  readonly limitBytes: number;
  #spent = 0;
  /** The first refusal: pdf-lib catches what its parsers throw and carries on, so it is kept to rethrow. */
  refusal?: ReadingBudgetError;

  constructor(limitBytes: number) {
    this.limitBytes = limitBytes;
  }

  get remainingBytes(): number {
    return Math.max(0, this.limitBytes - this.#spent);
  }

  get spentBytes(): number {
    return this.#spent;
  }

  /** Counts `bytes` made for `what`; throws (and remembers) the refusal once the budget is spent. */
  spend(bytes: number, what: string): void {
    if (this.refusal) throw this.refusal;
    this.#spent += bytes;
    if (this.#spent > this.limitBytes) throw this.refuse(this.overMessage(what));
  }

  /** Whether `bytes` more would still fit, without spending them. */
  fits(bytes: number): boolean {
    return !this.refusal && this.#spent + bytes <= this.limitBytes;
  }

  refuse(message: string): ReadingBudgetError {
    this.refusal ??= new ReadingBudgetError(message);
    return this.refusal;
  }

  overMessage(what: string): string {
    return `The PDF is refused: it decompresses to more than the ${megabytes(this.limitBytes)} one document may use (at ${what}).`;
  }
}

export const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 102.4) / 10} MB`;
