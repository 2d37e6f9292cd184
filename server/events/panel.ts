import type { EventDeclarations } from './types';

/**
 * The events the panel itself raises (servers, users: not feature folders), with their phases;
 * their payloads are declared below in `PanelEvents`.
 */
export const panelEvents: EventDeclarations = {};
