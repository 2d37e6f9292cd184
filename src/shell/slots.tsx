import { type ComponentType, type ReactNode, Suspense, createContext, useContext } from 'react';

/**
 * Places in a feature's page where other features add something (a button, a card), by name,
 * with the props the place gives: the page's feature declares its places by declaration merging
 * (`declare module '../../src/shell/slots' { interface PageSlots { 'app.actions': {...} } }`),
 * other features fill them in their `slots.tsx` (gathered by scripts/gen-features.mjs into
 * src/routes/slots.gen.ts), so a page never imports the features that extend it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the pages
export interface PageSlots {}

export type SlotName = keyof PageSlots & string;

/** What one feature puts in which places (lazy components keep them out of the first bundle). */
export type SlotFills = { [K in SlotName]?: ComponentType<PageSlots[K]> };

const Fills = createContext<readonly SlotFills[]>([]);

/** Every feature's fills, in the feature folders' order (mounted once, in src/App.tsx). */
export function SlotsProvider({
  fills,
  children,
}: {
  fills: readonly SlotFills[];
  children: ReactNode;
}) {
  return <Fills.Provider value={fills}>{children}</Fills.Provider>;
}

/** A place of the page: what each feature puts there, in order; nothing when none does. */
export function Slot<K extends SlotName>({ id, props }: { id: K; props: PageSlots[K] }) {
  const fills = useContext(Fills);
  return (
    <>
      {fills.map((fill, i) => {
        const Fill = fill[id] as ComponentType<PageSlots[K]> | undefined;
        if (!Fill) return null;
        return (
          <Suspense key={i} fallback={null}>
            <Fill {...(props as PageSlots[K] & object)} />
          </Suspense>
        );
      })}
    </>
  );
}
