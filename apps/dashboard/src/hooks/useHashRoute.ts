import { useSyncExternalStore } from 'react';
import { parseRoute, type Route } from '../lib/routes';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

const currentHash = () => window.location.hash;

export function useHashRoute(): Route {
  // Subscribing to the raw hash string keeps the snapshot stable between renders.
  const hash = useSyncExternalStore(subscribe, currentHash);
  return parseRoute(hash);
}
