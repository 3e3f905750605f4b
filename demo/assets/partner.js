import { logEvents } from './event-log.js';

logEvents(['acct-signed-in', 'acct-signed-out', 'acct-navigate', 'acct-language-change']);
