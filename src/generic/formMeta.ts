import { createContext, useContext } from 'react';

/**
 * Path values of the page's calls (`sid`, an app id...), for the inputs that call the API
 * themselves: a reference lists the other resource's records of the same server, an
 * availability check asks the same create call with `?dry=true`.
 */
export const FormMetaContext = createContext<Record<string, unknown>>({});

export const useFormMeta = () => useContext(FormMetaContext);
