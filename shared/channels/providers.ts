import type { ChannelType } from '../domain/channels/account';
import { apiProvider } from './api';
import { emailProvider } from './email';
import type { Provider } from './provider';
import { sandboxProvider } from './sandbox';

export const providers: Record<ChannelType, Provider> = { api: apiProvider, email: emailProvider, sandbox: sandboxProvider };
