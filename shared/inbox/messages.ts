export { listMessages, postMessage } from '../data/messages';
export { receiveIncoming } from '../data/messages-incoming';
