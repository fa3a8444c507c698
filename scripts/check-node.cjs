// Runs before `npm start`, `npm test` and `npm run dev`, on whatever Node the machine has, so it is plain
// CommonJS with nothing newer than Node 8 can parse. Without it an old Node fails later and obscurely
// (a bad option, a missing API), after dozens of EBADENGINE warnings that name other packages.
'use strict';
const path = require('path');

const supported = require(path.join(__dirname, '..', 'package.json')).engines.node;
const found = process.versions.node;

/** `^22.19.0 || >=24.0.0`: the two forms package.json's engines uses; anything else is refused. */
function satisfies(version, range) {
  const [major, minor, patch] = version.split('.').map(Number);
  const atLeast = (floor) =>
    major !== floor[0] ? major > floor[0] : minor !== floor[1] ? minor > floor[1] : patch >= floor[2];
  return range.split('||').some((part) => {
    const match = /^\s*(\^|>=)(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
    if (!match) throw new Error(`check-node: cannot read the engines range "${part.trim()}" in package.json`);
    const floor = match.slice(2).map(Number);
    return atLeast(floor) && (match[1] === '>=' || major === floor[0]);
  });
}

module.exports = { satisfies };

if (require.main === module && !satisfies(found, supported)) {
  // The lowest floor is the one that matters on an old machine; a newer but unsupported line (an odd one)
  // also gets the list.
  const lowest = /(\d+\.\d+)/.exec(supported)[1];
  const shown = found.split('.').slice(0, 2).join('.');
  const older = Number(found.split('.')[0]) < Number(lowest.split('.')[0]);
  process.stderr.write(
    `Node ${lowest}+ needed${older ? '' : ` (${supported})`}; found ${shown}. ` +
      '`bash scripts/setup-machine.sh` installs Node 24 (see the README).\n',
  );
  process.exit(1);
}
