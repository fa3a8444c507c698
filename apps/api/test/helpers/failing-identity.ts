import { IdentityProviderUnavailableError, type IdentityProvider } from '../../src/identity/identity-provider.ts';

export type IdentityCall = Exclude<keyof IdentityProvider, 'createUserWithPassword'>;

/**
 * Wraps the real identity provider so a test can make chosen calls fail as an outage would, then checks
 * what the database and the emulator were left with. Pass `wrap` to useTestApp({ wrapIdentity }).
 */
export function failingIdentity() {
  const failing = new Set<IdentityCall>();
  const wrap = (real: IdentityProvider): IdentityProvider =>
    new Proxy(real, {
      get(target, property, receiver) {
        if (failing.has(property as IdentityCall)) {
          return async () => {
            throw new IdentityProviderUnavailableError(`forced ${String(property)} failure`);
          };
        }
        return Reflect.get(target, property, receiver);
      },
    });
  return {
    wrap,
    fail(...calls: IdentityCall[]) {
      for (const call of calls) failing.add(call);
    },
    heal() {
      failing.clear();
    },
  };
}
