import { logEvents } from './event-log.js';

logEvents(['acct-signed-out', 'acct-theme-change', 'acct-language-change', 'acct-navigate']);
