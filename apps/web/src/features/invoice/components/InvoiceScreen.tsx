/** The invoice screen (issue 3). */
export default function InvoiceScreen() {
  return <main className="container py-4">Invoice</main>;
}
