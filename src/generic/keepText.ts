/** Text inputs keep "" as typed; react-admin would turn it into null, which a string refuses. */
export const keepText = (value: string) => value;
