/** The footer's License and Changelog: documents the panel serves itself, never an outside site. */
export const LICENSE_URL = '/license.txt';
export const CHANGELOG_URL = '/changelog.txt';
