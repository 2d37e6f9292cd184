import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { RELOAD_KEY, decideOnChunkFailure, withTimeout } from './chunkReload';

/**
 * React.lazy with the spec's load time-out: a part that fails or takes longer than
 * 120000 ms reloads the page once (a new deployment replaced the chunk files); a second
 * failure in a row reaches the error boundary instead of looping.
 */
export function lazyPage<P extends object = object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => {
    try {
      const module = await withTimeout(load());
      window.sessionStorage.removeItem(RELOAD_KEY);
      return module;
    } catch (error) {
      if (decideOnChunkFailure(window.sessionStorage.getItem(RELOAD_KEY), Date.now()) === 'fail') {
        throw error;
      }
      window.sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
      window.location.reload();
      // Nothing renders until the reload replaces the page.
      return new Promise<never>(() => undefined);
    }
  });
}
