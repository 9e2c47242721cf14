/** Accounts as stored, read, switched or deleted: apart from `accounts.ts`, which seals, so these functions carry no KMS client. */
export { changeChannelStatus, deleteChannel, listChannels, requireChannel } from '../data/channels';
