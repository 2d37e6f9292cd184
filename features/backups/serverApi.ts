/**
 * What backups offers other features, of the code the panel loads: they import it from here,
 * never from its other files (lint: stackdeck/feature-api).
 */
export { creditLedgerPage } from './serverCredit';
