import { useEffect } from 'react';
import { useTheme } from '@/lib/runtime-config';

/** The tab's title for a screen: "<screen> · <product name>", so open tabs and history tell screens apart. */
export function usePageTitle(screen: string) {
  const { productName } = useTheme();
  useEffect(() => {
    document.title = `${screen} · ${productName}`;
  }, [screen, productName]);
}
