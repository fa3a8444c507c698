import type { XmlElement } from '../xml-tree.ts';

/** Every `currencyID` the document states, in document order (amounts in either syntax carry one). */
export function currenciesIn(root: XmlElement): string[] {
  const found: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const element = stack.pop()!;
    const currency = element.attributes.currencyID;
    if (currency !== undefined) found.push(currency);
    for (let index = element.children.length - 1; index >= 0; index -= 1) stack.push(element.children[index]!);
  }
  return found;
}
