/**
 * What SSH keys offer other features, of the code the panel loads: they import it from here,
 * never from its other files (lint: stackdeck/feature-api). Teams take the keys of members who
 * lost a server off it, and say how many in the team's activity.
 */
export { revokeKeysOfLeavers } from './serverRevocation';
