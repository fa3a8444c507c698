import type { RuntimeConfig } from '@portal/contract';
import { DEFAULT_THEME as BUILT_IN_THEME } from '@portal/contract/theme';
import { createContext, useContext, type ReactNode } from 'react';

export async function fetchRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch('/config.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`Could not load /config.json (HTTP ${response.status})`);
  return checkRuntimeConfig(await response.json());
}

/**
 * A hand-written check instead of the contract's zod schema: zod would add ~15 KB to the first page,
 * and the server already validates what it sends with that schema.
 */
export function checkRuntimeConfig(value: unknown): RuntimeConfig {
  const config = value as Partial<RuntimeConfig> | null;
  if (
    typeof config?.apiBaseUrl !== 'string' ||
    typeof config.supportContact !== 'string' ||
    typeof config.firebase?.apiKey !== 'string' ||
    typeof config.firebase.projectId !== 'string'
  ) {
    throw new Error('The runtime configuration in /config.json is incomplete');
  }
  return config as RuntimeConfig;
}

export type Theme = NonNullable<RuntimeConfig['theme']>;

/** The built-in brand, the one the server's defaults come from too, so a missing theme looks the same. */
export const DEFAULT_THEME: Theme = BUILT_IN_THEME;

const rgbOf = (hex: string) => [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16)).join(', ');

/** Puts the deployment's colours into the CSS variables the stylesheet reads (see styles.css). */
export function applyTheme(theme: Theme = DEFAULT_THEME) {
  const style = document.documentElement.style;
  style.setProperty('--portal-primary', theme.primaryColor);
  style.setProperty('--bs-primary-rgb', rgbOf(theme.primaryColor));
  style.setProperty('--bs-link-color-rgb', rgbOf(theme.primaryColor));
  style.setProperty('--portal-brand', theme.headerColor);
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', theme.headerColor);
}

/** The configured brand, or the built-in one. */
export const useTheme = (): Theme => useRuntimeConfig().theme ?? DEFAULT_THEME;

const RuntimeConfigContext = createContext<RuntimeConfig | null>(null);

export function RuntimeConfigProvider({ config, children }: { config: RuntimeConfig; children: ReactNode }) {
  return <RuntimeConfigContext value={config}>{children}</RuntimeConfigContext>;
}

export function useRuntimeConfig(): RuntimeConfig {
  const config = useContext(RuntimeConfigContext);
  if (!config) throw new Error('useRuntimeConfig must be used inside RuntimeConfigProvider');
  return config;
}
