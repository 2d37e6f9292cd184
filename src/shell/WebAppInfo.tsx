import { type ReactNode, createContext, useContext, useEffect, useMemo, useState } from 'react';
import { WORDPRESS_MENU_SWITCH_MS, type WebAppInfo, isWordPress } from './webApp';

interface WebAppInfoState {
  info: WebAppInfo | null;
  setInfo: (info: WebAppInfo | null) => void;
}

const WebAppInfoContext = createContext<WebAppInfoState | null>(null);

/** Wraps the web-app layouts: their pages publish the app they loaded, the layout reads it. */
export function WebAppInfoProvider({ children }: { children: ReactNode }) {
  const [info, setInfo] = useState<WebAppInfo | null>(null);
  const value = useMemo(() => ({ info, setInfo }), [info]);
  return <WebAppInfoContext.Provider value={value}>{children}</WebAppInfoContext.Provider>;
}

/** For pages: tell the layout which app is open (menu, file-manager strip). */
export function usePublishWebApp(info: WebAppInfo | null | undefined) {
  const setInfo = useContext(WebAppInfoContext)?.setInfo;
  useEffect(() => {
    if (!setInfo) return;
    setInfo(info ?? null);
    return () => setInfo(null);
  }, [setInfo, info]);
}

export function useWebAppInfo(): WebAppInfo | null {
  return useContext(WebAppInfoContext)?.info ?? null;
}

/** True 500 ms after a WordPress app is published, false at once for others. */
export function useWordPressMenu(): boolean {
  const wordpress = isWordPress(useWebAppInfo());
  const [switched, setSwitched] = useState(false);
  useEffect(() => {
    if (!wordpress) {
      setSwitched(false);
      return;
    }
    const timer = setTimeout(() => setSwitched(true), WORDPRESS_MENU_SWITCH_MS);
    return () => clearTimeout(timer);
  }, [wordpress]);
  return wordpress && switched;
}
