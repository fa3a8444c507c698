import { MAX_ZIP_INVOICES } from '@portal/contract';
import { useKeptSelection } from './use-kept-selection';

/**
 * The invoices ticked for a ZIP, by parcel code. Unlike the admin list's, a selection outlives its page: one
 * gathers invoices across pages and searches, up to the most one ZIP holds, and finds it again after opening
 * one of them (kept in the tab for this person).
 */
export function useInvoiceSelection(pageCodes: readonly string[]) {
  const [selected, setSelected] = useKeptSelection();
  const change = (codes: readonly string[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const code of codes) {
        if (on && next.size < MAX_ZIP_INVOICES) next.add(code);
        if (!on) next.delete(code);
      }
      return next;
    });
  return {
    selected,
    allOnPage: pageCodes.length > 0 && pageCodes.every((code) => selected.has(code)),
    toggle: (code: string, on: boolean) => change([code], on),
    togglePage: (on: boolean) => change(pageCodes, on),
    clear: () => setSelected(new Set()),
  };
}
