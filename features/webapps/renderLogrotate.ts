import { APP_LOG_DIR } from './names';

/**
 * Daily rotation of every app's logs, 14 days kept. `delaycompress` leaves yesterday's file
 * plain (`.1`), where the log pages continue; nginx and Apache reopen their files after.
 */
export function renderLogrotate(): string {
  return `# Written by Stackdeck: changes here are replaced.
${APP_LOG_DIR}/*/*.log {
	daily
	missingok
	rotate 14
	compress
	delaycompress
	notifempty
	sharedscripts
	postrotate
		if [ -s /run/nginx.pid ]; then kill -USR1 "$(cat /run/nginx.pid)"; fi
		if pgrep -f ^/usr/sbin/apache2 > /dev/null; then apache2ctl graceful > /dev/null 2>&1; fi
	endscript
}
`;
}
