export { notificationSecret } from '../data/workflow-secrets';
