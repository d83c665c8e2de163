import { useState } from 'react';
import { RouterProvider } from '@tanstack/react-router';
import { createAppRouter } from './router';

/** The dashboard: its views behind the router, addressed by the page's hash. */
export function App() {
  const [router] = useState(() => createAppRouter());
  return <RouterProvider router={router} />;
}
