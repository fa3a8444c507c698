/** `npm run portal -- users ...` (to be implemented). */
export async function run(args: string[]): Promise<number> {
  process.stderr.write(`users: not implemented yet (${args.join(' ')})\n`);
  return 70;
}
