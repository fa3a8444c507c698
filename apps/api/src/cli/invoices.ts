/** `npm run portal -- invoices ...` (to be implemented). */
export async function run(args: string[]): Promise<number> {
  process.stderr.write(`invoices: not implemented yet (${args.join(' ')})\n`);
  return 70;
}
