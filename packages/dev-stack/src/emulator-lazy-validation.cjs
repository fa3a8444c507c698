// Preloaded (--require) into the Auth emulator's process. firebase-tools builds the emulator's HTTP API with
// exegesis, which by default compiles a JSON-schema validator for every parameter of every operation at
// start: about 10 s of CPU, four fifths of the emulator's start-up, spent mostly compiling Ajv's meta-schema
// once per validator. exegesis' own `lazyCompileValidationSchemas` option compiles each validator when its
// operation is first called instead; every request is still validated exactly as before. firebase-tools
// does not expose the option, so it is set here as exegesis reads its options.
'use strict';
const path = require('node:path');

try {
  const toolsDir = path.join(__dirname, '../../../tools/firebase-emulator');
  const firebaseTools = path.dirname(require.resolve('firebase-tools/package.json', { paths: [toolsDir] }));
  const options = require(require.resolve('exegesis/lib/options.js', { paths: [firebaseTools] }));
  const compileOptions = options.compileOptions;
  if (typeof compileOptions !== 'function') throw new Error('exegesis/lib/options.js has no compileOptions');
  options.compileOptions = (given) => ({ ...compileOptions(given), lazyCompileValidationSchemas: true });
} catch (error) {
  // A firebase-tools upgrade that moved exegesis costs start-up time, not correctness: say so and go on.
  process.stderr.write(`auth emulator: validators compile at start (slower): ${error.message}\n`);
}
