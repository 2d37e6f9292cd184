import { useEffect, useRef, useState } from 'react';

/**
 * Stripe.js in the page: the few calls the panel makes (docs.stripe.com/js). It is loaded only
 * on the payment pages, through the panel's own `payment-methods/stripe.js`, which redirects to
 * js.stripe.com (or the stand-in STRIPE_JS_URL names); the CSP allows Stripe only there.
 */
export interface StripeCardElement {
  mount(target: HTMLElement): void;
  destroy?(): void;
}
type Confirmed<K extends string> = { [key in K]?: { id: string; status: string } } & {
  error?: { message?: string };
};
export interface StripeJs {
  elements(): { create(type: 'card'): StripeCardElement };
  confirmCardSetup(
    clientSecret: string,
    data: { payment_method: { card: StripeCardElement } },
  ): Promise<Confirmed<'setupIntent'>>;
  confirmCardPayment(
    clientSecret: string,
    data: { payment_method: { card: StripeCardElement } },
  ): Promise<Confirmed<'paymentIntent'>>;
}
declare global {
  interface Window {
    Stripe?: (publishableKey: string) => StripeJs;
  }
}

const SCRIPT = '/api/v1/payment-methods/stripe.js';
let loading: Promise<void> | undefined;

function loadScript(): Promise<void> {
  if (window.Stripe) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading = undefined;
      script.remove();
      reject(new Error('Stripe.js could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/**
 * The page's CSP is the one its document was loaded with: a payment page reached inside the
 * app (no new document) may not allow Stripe yet. Loaded again once, it has the payment pages'.
 */
function reloadOnce(): boolean {
  const key = `stripe-reload:${window.location.pathname}`;
  if (sessionStorage.getItem(key)) return false;
  sessionStorage.setItem(key, '1');
  window.location.reload();
  return true;
}

/** A mounted card form: the element to confirm with, its container, and what went wrong. */
export function useStripeCard(publishableKey: string | null) {
  const container = useRef<HTMLDivElement>(null);
  const [stripe, setStripe] = useState<{ js: StripeJs; card: StripeCardElement } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!publishableKey) return;
    let cancelled = false;
    let card: StripeCardElement | undefined;
    loadScript()
      .then(() => {
        if (cancelled || !window.Stripe || !container.current) return;
        sessionStorage.removeItem(`stripe-reload:${window.location.pathname}`);
        const js = window.Stripe(publishableKey);
        card = js.elements().create('card');
        card.mount(container.current);
        setStripe({ js, card });
      })
      .catch(() => {
        if (!cancelled && !reloadOnce())
          setError('The card form could not be loaded. Check your connection and try again.');
      });
    return () => {
      cancelled = true;
      card?.destroy?.();
    };
  }, [publishableKey]);
  return { container, stripe, error };
}
