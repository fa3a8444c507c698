import { packageDirOf } from './third-party-packages.ts';

describe('the package a bundled module comes from', () => {
  it('is the folder under node_modules, scoped or not, nested or not', () => {
    expect(packageDirOf('/repo/node_modules/react/cjs/react.production.js')).toBe('/repo/node_modules/react');
    expect(packageDirOf('/repo/node_modules/@firebase/auth/dist/esm/index.js')).toBe(
      '/repo/node_modules/@firebase/auth',
    );
    expect(packageDirOf('/repo/node_modules/a/node_modules/@scope/b/index.js')).toBe(
      '/repo/node_modules/a/node_modules/@scope/b',
    );
    expect(packageDirOf('C:\\repo\\node_modules\\zod\\index.js')).toBe('C:/repo/node_modules/zod');
  });

  it('is none for the app its own modules and virtual ones', () => {
    expect(packageDirOf('/repo/apps/web/src/main.tsx')).toBeUndefined();
    expect(packageDirOf('\0vite/preload-helper.js')).toBeUndefined();
  });
});
