/** Generated from the OpenAPI document by `npm run client` (infra/docs/write-client-types.ts); do not edit. */

export interface paths {
  '/api/v1/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This API described as OpenAPI 3.1 (public: no token, no workspace, no rate limit)
     * @description Public: no token, no workspace, no rate limit.
     */
    get: operations['docsGetOpenapi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/workspaces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Workspaces the calling token can access, each with the mode the token sees it in (`livemode`)
     * @description Scope: `any valid token`. Rate limit: auth (20 requests per 15 minutes per token).
     */
    get: operations['authListWorkspaces'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The calling token's name, prefix, scopes, expiry and mode (`livemode`)
     * @description Scope: `any valid token`. Rate limit: auth (20 requests per 15 minutes per token).
     */
    get: operations['authGetToken'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/tokens': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The workspace's API tokens in the caller's mode, without their values
     * @description Scope: `admin:all`. Rate limit: auth (20 requests per 15 minutes per token).
     */
    get: operations['authListTokens'];
    put?: never;
    /**
     * Create an API token (its value is returned once), never wider than the caller
     * @description Scope: `admin:all`. Rate limit: auth (20 requests per 15 minutes per token).
     */
    post: operations['authCreateToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/tokens/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke an API token; its next request gets 401
     * @description Scope: `admin:all`. Rate limit: auth (20 requests per 15 minutes per token).
     */
    delete: operations['authRevokeToken'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tags': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List tags by name
     * @description Scope: `tags:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['tagsListTags'];
    put?: never;
    /**
     * Create a tag
     * @description Scope: `tags:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['tagsCreateTag'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tags/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A tag with its usage counts
     * @description Scope: `tags:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['tagsGetTag'];
    put?: never;
    post?: never;
    /**
     * Delete a tag, detaching it everywhere
     * @description Scope: `tags:write`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['tagsDeleteTag'];
    options?: never;
    head?: never;
    /**
     * Rename or recolor a tag
     * @description Scope: `tags:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['tagsUpdateTag'];
    trace?: never;
  };
  '/api/v1/tags/bulk': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Tag many entities at once
     * @description Scope: `tags:write`. Rate limit: bulk (10 requests per 15 minutes per token).
     */
    post: operations['tagsBulkTag'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tags/bulk/remove': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Untag many entities at once
     * @description Scope: `tags:write`. Rate limit: bulk (10 requests per 15 minutes per token).
     */
    post: operations['tagsBulkUntag'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inbox/conversations/{id}/tags': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Tags on a conversation
     * @description Scope: `tags:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['tagsListConversationTags'];
    put?: never;
    /**
     * Attach tags to a conversation
     * @description Scope: `tags:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['tagsTagConversation'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inbox/conversations/{id}/tags/{tagId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Detach a tag from a conversation
     * @description Scope: `tags:write`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['tagsUntagConversation'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/contacts/customers/{id}/tags': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Tags on a customer
     * @description Scope: `tags:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['tagsListCustomerTags'];
    put?: never;
    /**
     * Attach tags to a customer
     * @description Scope: `tags:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['tagsTagCustomer'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/contacts/customers/{id}/tags/{tagId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Detach a tag from a customer
     * @description Scope: `tags:write`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['tagsUntagCustomer'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/leads/{id}/tags': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Tags on a lead
     * @description Scope: `tags:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['tagsListLeadTags'];
    put?: never;
    /**
     * Attach tags to a lead
     * @description Scope: `tags:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['tagsTagLead'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/leads/{id}/tags/{tagId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Detach a tag from a lead
     * @description Scope: `tags:write`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['tagsUntagLead'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/integrations/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the workspace's webhook subscriptions
     * @description Scope: `webhooks:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['webhooksListSubscriptions'];
    put?: never;
    /**
     * Create a webhook subscription (the secret is returned once)
     * @description Scope: `webhooks:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['webhooksCreateSubscription'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/integrations/webhooks/event-types': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The event catalog and wildcards
     * @description Scope: `webhooks:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['webhooksListEventTypes'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/integrations/webhooks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One webhook subscription
     * @description Scope: `webhooks:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['webhooksGetSubscription'];
    put?: never;
    post?: never;
    /**
     * Delete a webhook subscription
     * @description Scope: `webhooks:write`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['webhooksDeleteSubscription'];
    options?: never;
    head?: never;
    /**
     * Update events, url or active
     * @description Scope: `webhooks:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['webhooksUpdateSubscription'];
    trace?: never;
  };
  '/api/v1/integrations/webhooks/{id}/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Success rate of the latest deliveries, consecutive failures, and why and when it was deactivated
     * @description Scope: `webhooks:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['webhooksGetHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/integrations/webhooks/{id}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate the signing secret (the new one is returned once); the old one keeps signing for an overlap
     * @description Scope: `webhooks:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['webhooksRotateSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/integrations/webhooks/{id}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a webhook.ping event
     * @description Scope: `webhooks:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['webhooksSendTestEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/integrations/webhooks/{id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Delivery log, filterable by status and eventType
     * @description Scope: `webhooks:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['webhooksListDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/integrations/webhooks/{id}/deliveries/{deliveryId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One delivery with every attempt
     * @description Scope: `webhooks:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['webhooksGetDelivery'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/integrations/webhooks/{id}/recover': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Re-send every failed delivery created in [since, until), each exactly once
     * @description Scope: `webhooks:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['webhooksRecoverDeliveries'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/integrations/webhooks/{id}/retry/{deliveryId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Retry a failed delivery now
     * @description Scope: `webhooks:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['webhooksRetryDelivery'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inbox/conversations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List conversations, filtered by status, assignee, channel, customer or tag
     * @description Scope: `inbox:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['inboxListConversations'];
    put?: never;
    /**
     * Create a conversation with a customer
     * @description Scope: `inbox:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['inboxCreateConversation'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inbox/conversations/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a conversation
     * @description Scope: `inbox:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['inboxGetConversation'];
    put?: never;
    post?: never;
    /**
     * Delete a conversation
     * @description Scope: `inbox:write`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['inboxDeleteConversation'];
    options?: never;
    head?: never;
    /**
     * Change a conversation's subject or priority
     * @description Scope: `inbox:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['inboxUpdateConversation'];
    trace?: never;
  };
  '/api/v1/inbox/conversations/{id}/assign': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Assign a conversation to an agent
     * @description Scope: `inbox:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['inboxAssignConversation'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inbox/conversations/{id}/unassign': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Unassign a conversation
     * @description Scope: `inbox:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['inboxUnassignConversation'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inbox/conversations/{id}/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Open, set pending, snooze or close a conversation
     * @description Scope: `inbox:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['inboxChangeConversationStatus'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inbox/conversations/{id}/messages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A conversation's messages, oldest first
     * @description Scope: `inbox:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['inboxListMessages'];
    put?: never;
    /**
     * Reply to a conversation or add a private note
     * @description Scope: `inbox:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['inboxCreateMessage'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inbox/messages/incoming': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Record a customer's incoming message (channel entry point)
     * @description Scope: `inbox:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['inboxReceiveMessage'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/contacts/customers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List customers; search by name, email or phone prefix, or filter by tag
     * @description Scope: `contacts:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['contactsListCustomers'];
    put?: never;
    /**
     * Create a customer
     * @description Scope: `contacts:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['contactsCreateCustomer'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/contacts/customers/merge': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Merge one customer into another
     * @description Scope: `contacts:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['contactsMergeCustomers'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/contacts/customers/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a customer
     * @description Scope: `contacts:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['contactsGetCustomer'];
    put?: never;
    post?: never;
    /**
     * Delete a customer without conversations
     * @description Scope: `contacts:write`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['contactsDeleteCustomer'];
    options?: never;
    head?: never;
    /**
     * Update a customer
     * @description Scope: `contacts:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['contactsUpdateCustomer'];
    trace?: never;
  };
  '/api/v1/contacts/customers/{id}/block': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Block a customer
     * @description Scope: `contacts:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['contactsBlockCustomer'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/contacts/customers/{id}/unblock': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Unblock a customer
     * @description Scope: `contacts:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['contactsUnblockCustomer'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/pipelines': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List pipelines, oldest first
     * @description Scope: `crm:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['crmListPipelines'];
    put?: never;
    /**
     * Create a pipeline with its stages (open, won and lost stages are added when missing)
     * @description Scope: `crm:create`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['crmCreatePipeline'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/pipelines/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a pipeline with its stages
     * @description Scope: `crm:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['crmGetPipeline'];
    put?: never;
    post?: never;
    /**
     * Delete a pipeline that holds no leads
     * @description Scope: `crm:delete`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['crmDeletePipeline'];
    options?: never;
    head?: never;
    /**
     * Rename a pipeline
     * @description Scope: `crm:update`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['crmUpdatePipeline'];
    trace?: never;
  };
  '/api/v1/crm/pipelines/{id}/summary': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Per stage: lead count, summed value and probability-weighted value
     * @description Scope: `crm:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['crmGetPipelineSummary'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/pipelines/{id}/stages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Add a stage to a pipeline
     * @description Scope: `crm:create`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['crmCreateStage'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/pipelines/{id}/stages/reorder': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Reorder a pipeline's stages
     * @description Scope: `crm:update`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['crmReorderStages'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/pipelines/{id}/stages/{stageId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete a stage that holds no leads
     * @description Scope: `crm:delete`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['crmDeleteStage'];
    options?: never;
    head?: never;
    /**
     * Rename a stage, change its probability, or its kind while it is empty
     * @description Scope: `crm:update`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['crmUpdateStage'];
    trace?: never;
  };
  '/api/v1/crm/leads': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List leads, filtered by pipeline, stage, status, assignee, customer or tag
     * @description Scope: `crm:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['crmListLeads'];
    put?: never;
    /**
     * Create a lead in a pipeline stage
     * @description Scope: `crm:create`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['crmCreateLead'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/leads/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a lead
     * @description Scope: `crm:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['crmGetLead'];
    put?: never;
    post?: never;
    /**
     * Delete a lead
     * @description Scope: `crm:delete`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['crmDeleteLead'];
    options?: never;
    head?: never;
    /**
     * Update a lead's fields or assignee
     * @description Scope: `crm:update`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['crmUpdateLead'];
    trace?: never;
  };
  '/api/v1/crm/leads/{id}/move': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Move a lead to another stage (won and lost stages close it)
     * @description Scope: `crm:update`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['crmMoveLead'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/leads/{id}/stage-history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A lead's stays in each stage, oldest first
     * @description Scope: `crm:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['crmListStageHistory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/leads/{id}/activities': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A lead's timeline, newest first
     * @description Scope: `crm:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['crmListLeadActivities'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/tasks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List tasks, filtered by assignee, lead, status or overdue
     * @description Scope: `crm:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['crmListTasks'];
    put?: never;
    /**
     * Create a task
     * @description Scope: `crm:create`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['crmCreateTask'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/tasks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a task
     * @description Scope: `crm:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['crmGetTask'];
    put?: never;
    post?: never;
    /**
     * Delete a task
     * @description Scope: `crm:delete`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['crmDeleteTask'];
    options?: never;
    head?: never;
    /**
     * Update an open task
     * @description Scope: `crm:update`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['crmUpdateTask'];
    trace?: never;
  };
  '/api/v1/crm/tasks/{id}/complete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Complete a task
     * @description Scope: `crm:update`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['crmCompleteTask'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/activities': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List activities, newest first, of a lead, a customer or the workspace
     * @description Scope: `crm:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['crmListActivities'];
    put?: never;
    /**
     * Log a note, call, email or meeting on a lead or customer
     * @description Scope: `crm:create`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['crmCreateActivity'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/activities/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an activity
     * @description Scope: `crm:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['crmGetActivity'];
    put?: never;
    post?: never;
    /**
     * Delete an activity added through the API
     * @description Scope: `crm:delete`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['crmDeleteActivity'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/contacts/customers/{id}/activities': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A customer's CRM timeline, newest first
     * @description Scope: `crm:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['crmListCustomerActivities'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workflows': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the workspace's workflows, newest first
     * @description Scope: `workflows:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['workflowsListWorkflows'];
    put?: never;
    /**
     * Create a workflow (inactive until activated)
     * @description Scope: `workflows:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['workflowsCreateWorkflow'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workflows/notification-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The secret on_error notifications are signed with
     * @description Scope: `workflows:write`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['workflowsGetNotificationSecret'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workflows/executions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Executions, newest first, filterable by workflowId and status
     * @description Scope: `workflows:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['workflowsListExecutions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workflows/executions/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One execution with every step attempt
     * @description Scope: `workflows:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['workflowsGetExecution'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workflows/executions/{id}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a queued, running or waiting execution
     * @description Scope: `workflows:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['workflowsCancelExecution'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workflows/executions/{id}/retry': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Re-run a failed execution from its failed step
     * @description Scope: `workflows:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['workflowsRetryExecution'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workflows/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One workflow
     * @description Scope: `workflows:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['workflowsGetWorkflow'];
    put?: never;
    post?: never;
    /**
     * Delete a workflow (its executions stay readable)
     * @description Scope: `workflows:write`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['workflowsDeleteWorkflow'];
    options?: never;
    head?: never;
    /**
     * Change a workflow (a new version)
     * @description Scope: `workflows:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['workflowsUpdateWorkflow'];
    trace?: never;
  };
  '/api/v1/workflows/{id}/activate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Activate: event and schedule triggers start runs
     * @description Scope: `workflows:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['workflowsActivateWorkflow'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workflows/{id}/deactivate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Deactivate: triggers stop starting runs
     * @description Scope: `workflows:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['workflowsDeactivateWorkflow'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workflows/{id}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A workflow's saved versions, newest first
     * @description Scope: `workflows:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['workflowsListVersions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workflows/{id}/trigger': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start a run now (202 with the execution)
     * @description Scope: `workflows:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['workflowsTriggerWorkflow'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/ai/knowledge-base/articles': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Articles newest first (without their body)
     * @description Scope: `ai:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['aiListArticles'];
    put?: never;
    /**
     * Create a knowledge-base article
     * @description Scope: `ai:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['aiCreateArticle'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/ai/knowledge-base/articles/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One article with its body
     * @description Scope: `ai:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['aiGetArticle'];
    put?: never;
    post?: never;
    /**
     * Delete an article
     * @description Scope: `ai:write`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['aiDeleteArticle'];
    options?: never;
    head?: never;
    /**
     * Change an article
     * @description Scope: `ai:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['aiUpdateArticle'];
    trace?: never;
  };
  '/api/v1/ai/knowledge-base/search': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Ranked passages of published articles for a query
     * @description Scope: `ai:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['aiSearch'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/ai/suggest-reply': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Passages and a reply for a conversation's latest incoming messages
     * @description Scope: `ai:read`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['aiSuggestReply'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/ai/settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The AI settings
     * @description Scope: `ai:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['aiGetSettings'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Change the AI settings
     * @description Scope: `ai:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['aiUpdateSettings'];
    trace?: never;
  };
  '/api/v1/analytics/overview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Headline figures for a date range
     * @description Scope: `analytics:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['analyticsOverview'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/analytics/conversations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Conversation volumes, messages, first response and resolution times, by day or week
     * @description Scope: `analytics:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['analyticsConversations'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/analytics/agents': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Per-assignee counts and times
     * @description Scope: `analytics:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['analyticsAgents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/analytics/pipeline': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Leads created, won and lost, won value and stage conversion
     * @description Scope: `analytics:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['analyticsPipeline'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/analytics/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Webhook delivery success rate and latency
     * @description Scope: `analytics:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['analyticsWebhooks'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/channels': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the workspace's channel accounts
     * @description Scope: `channels:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['channelsListChannels'];
    put?: never;
    /**
     * Connect a channel account (api, email or sandbox); the signing secret is returned once
     * @description Scope: `channels:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['channelsCreateChannel'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/channels/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One channel account (secrets are never shown)
     * @description Scope: `channels:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['channelsGetChannel'];
    put?: never;
    post?: never;
    /**
     * Delete a channel account
     * @description Scope: `channels:write`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['channelsDeleteChannel'];
    options?: never;
    head?: never;
    /**
     * Change a channel account's name, rate, config or secrets
     * @description Scope: `channels:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['channelsUpdateChannel'];
    trace?: never;
  };
  '/api/v1/channels/{id}/connect': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Reconnect a disconnected or errored account
     * @description Scope: `channels:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['channelsConnectChannel'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/channels/{id}/disconnect': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Disconnect an account: nothing is sent through it
     * @description Scope: `channels:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['channelsDisconnectChannel'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/channels/{id}/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An account's connection status and last error
     * @description Scope: `channels:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['channelsGetChannelStatus'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/channels/{id}/inbound': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A provider call: incoming message, raw email or status receipt (HMAC-signed)
     * @description Scope: `channels:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['channelsReceiveInbound'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/broadcasts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List broadcasts, newest first, with their stats
     * @description Scope: `channels:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['broadcastsListBroadcasts'];
    put?: never;
    /**
     * Create a draft broadcast
     * @description Scope: `channels:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['broadcastsCreateBroadcast'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/broadcasts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One broadcast with its stats
     * @description Scope: `channels:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['broadcastsGetBroadcast'];
    put?: never;
    post?: never;
    /**
     * Delete a draft or finished broadcast
     * @description Scope: `channels:write`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['broadcastsDeleteBroadcast'];
    options?: never;
    head?: never;
    /**
     * Edit a draft broadcast
     * @description Scope: `channels:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['broadcastsUpdateBroadcast'];
    trace?: never;
  };
  '/api/v1/broadcasts/{id}/schedule': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Schedule a draft (or move a scheduled) broadcast
     * @description Scope: `channels:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['broadcastsScheduleBroadcast'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/broadcasts/{id}/send': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start sending a draft or scheduled broadcast now (202)
     * @description Scope: `channels:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['broadcastsSendBroadcast'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/broadcasts/{id}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a broadcast: recipients not yet sent to never are
     * @description Scope: `channels:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['broadcastsCancelBroadcast'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/broadcasts/{id}/recipients': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A broadcast's recipients with their status
     * @description Scope: `channels:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['broadcastsListRecipients'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workspace': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The workspace's settings: name, timezone, locale and business hours
     * @description Scope: `admin:all`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['workspaceGetWorkspace'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Change the workspace's name, timezone, locale or business hours
     * @description Scope: `admin:all`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['workspaceUpdateWorkspace'];
    trace?: never;
  };
  '/api/v1/workspace/members': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the workspace's members, oldest first, filterable by status
     * @description Scope: `admin:all`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['workspaceListMembers'];
    put?: never;
    /**
     * Invite a member (owner, admin, manager or agent)
     * @description Scope: `admin:all`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['workspaceInviteMember'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workspace/members/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a member
     * @description Scope: `admin:all`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['workspaceGetMember'];
    put?: never;
    post?: never;
    /**
     * Remove a member and unassign their open conversations (never the last owner)
     * @description Scope: `admin:all`. Rate limit: delete (50 requests per 15 minutes per token).
     */
    delete: operations['workspaceRemoveMember'];
    options?: never;
    head?: never;
    /**
     * Change a member's role (the last owner cannot be demoted)
     * @description Scope: `admin:all`. Rate limit: write (100 requests per 15 minutes per token).
     */
    patch: operations['workspaceUpdateMember'];
    trace?: never;
  };
  '/api/v1/workspace/members/{id}/accept': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Accept a member's invitation (stands in for the invitee's link)
     * @description Scope: `admin:all`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['workspaceAcceptMember'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/scheduling/bookings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List bookings by start time, filtered by assignee, customer, status and a time range
     * @description Scope: `inbox:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['schedulingListBookings'];
    put?: never;
    /**
     * Book an assignee for a customer (never double-booked)
     * @description Scope: `inbox:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['schedulingCreateBooking'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/scheduling/bookings/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a booking
     * @description Scope: `inbox:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['schedulingGetBooking'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/scheduling/bookings/{id}/ics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A booking as an iCalendar (.ics) file
     * @description Scope: `inbox:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['schedulingGetBookingIcs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/scheduling/bookings/{id}/reschedule': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Move a pending or confirmed booking (and optionally reassign it)
     * @description Scope: `inbox:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['schedulingRescheduleBooking'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/scheduling/bookings/{id}/confirm': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirm a pending booking
     * @description Scope: `inbox:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['schedulingConfirmBooking'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/scheduling/bookings/{id}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a pending or confirmed booking, freeing its time
     * @description Scope: `inbox:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['schedulingCancelBooking'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/scheduling/bookings/{id}/complete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Mark a confirmed booking that has started as completed
     * @description Scope: `inbox:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['schedulingCompleteBooking'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/scheduling/bookings/{id}/no-show': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Mark a confirmed booking that has started as a no-show
     * @description Scope: `inbox:write`. Rate limit: write (100 requests per 15 minutes per token).
     */
    post: operations['schedulingNoShowBooking'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/scheduling/availability': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An assignee's free slots: business hours in the workspace's timezone minus bookings
     * @description Scope: `inbox:read`. Rate limit: read (300 requests per 15 minutes per token).
     */
    get: operations['schedulingGetAvailability'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  'inbox.conversation.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.conversation.created
     * @description A conversation was created.
     */
    post: operations['event_inbox_conversation_created'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.conversation.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.conversation.updated
     * @description A conversation’s subject changed (`changes` names the fields).
     */
    post: operations['event_inbox_conversation_updated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.conversation.assigned': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.conversation.assigned
     * @description A conversation was assigned to an agent.
     */
    post: operations['event_inbox_conversation_assigned'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.conversation.unassigned': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.conversation.unassigned
     * @description A conversation’s assignee was removed.
     */
    post: operations['event_inbox_conversation_unassigned'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.conversation.status_changed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.conversation.status_changed
     * @description A conversation’s status changed to pending, or from pending back to open.
     */
    post: operations['event_inbox_conversation_status_changed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.conversation.snoozed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.conversation.snoozed
     * @description A conversation was snoozed, or its wake-up time moved.
     */
    post: operations['event_inbox_conversation_snoozed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.conversation.closed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.conversation.closed
     * @description A conversation was closed.
     */
    post: operations['event_inbox_conversation_closed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.conversation.reopened': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.conversation.reopened
     * @description A closed or snoozed conversation was opened again: by an agent, an incoming message or its snooze timer.
     */
    post: operations['event_inbox_conversation_reopened'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.conversation.priority_changed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.conversation.priority_changed
     * @description A conversation’s priority changed.
     */
    post: operations['event_inbox_conversation_priority_changed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.conversation.deleted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.conversation.deleted
     * @description A conversation was deleted, with its messages.
     */
    post: operations['event_inbox_conversation_deleted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.conversation.tagged': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.conversation.tagged
     * @description Tags were attached to a conversation (`tags` lists the ones added).
     */
    post: operations['event_inbox_conversation_tagged'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.conversation.untagged': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.conversation.untagged
     * @description Tags were detached from a conversation (`tags` lists the ones removed).
     */
    post: operations['event_inbox_conversation_untagged'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.message.received': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.message.received
     * @description A customer’s message arrived in a conversation.
     */
    post: operations['event_inbox_message_received'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.message.sent': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.message.sent
     * @description An agent or integration replied in a conversation.
     */
    post: operations['event_inbox_message_sent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.message.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.message.updated
     * @description A message’s delivery status changed (reported by its channel). (planned: subscribable, not emitted yet)
     */
    post: operations['event_inbox_message_updated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'inbox.note.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * inbox.note.created
     * @description A private note was added to a conversation.
     */
    post: operations['event_inbox_note_created'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'customer.contact.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * customer.contact.created
     * @description A customer was created.
     */
    post: operations['event_customer_contact_created'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'customer.contact.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * customer.contact.updated
     * @description A customer’s fields changed (`changes` names them), e.g. a new channel identity.
     */
    post: operations['event_customer_contact_updated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'customer.contact.deleted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * customer.contact.deleted
     * @description A customer was deleted.
     */
    post: operations['event_customer_contact_deleted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'customer.contact.blocked': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * customer.contact.blocked
     * @description A customer was blocked.
     */
    post: operations['event_customer_contact_blocked'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'customer.contact.unblocked': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * customer.contact.unblocked
     * @description A customer was unblocked.
     */
    post: operations['event_customer_contact_unblocked'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'customer.contact.merged': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * customer.contact.merged
     * @description A customer (`mergedContact`, now deleted) was merged into `contact`.
     */
    post: operations['event_customer_contact_merged'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'customer.contact.tagged': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * customer.contact.tagged
     * @description Tags were attached to a customer (`tags` lists the ones added).
     */
    post: operations['event_customer_contact_tagged'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'customer.contact.untagged': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * customer.contact.untagged
     * @description Tags were detached from a customer (`tags` lists the ones removed).
     */
    post: operations['event_customer_contact_untagged'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'auth.workspace.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * auth.workspace.updated
     * @description The workspace’s name, timezone, locale or business hours changed (`changes` names them).
     */
    post: operations['event_auth_workspace_updated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'auth.token.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * auth.token.created
     * @description An API token bound to this workspace was created (never its value).
     */
    post: operations['event_auth_token_created'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'auth.token.revoked': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * auth.token.revoked
     * @description An API token bound to this workspace was revoked.
     */
    post: operations['event_auth_token_revoked'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'auth.member.invited': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * auth.member.invited
     * @description A member was invited to the workspace.
     */
    post: operations['event_auth_member_invited'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'auth.member.joined': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * auth.member.joined
     * @description An invited member joined the workspace.
     */
    post: operations['event_auth_member_joined'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'auth.member.removed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * auth.member.removed
     * @description A member was removed from the workspace.
     */
    post: operations['event_auth_member_removed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'auth.member.role_changed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * auth.member.role_changed
     * @description A member’s role changed.
     */
    post: operations['event_auth_member_role_changed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.lead.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.lead.created
     * @description A lead was created.
     */
    post: operations['event_crm_lead_created'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.lead.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.lead.updated
     * @description A lead’s fields changed (`changes` names them).
     */
    post: operations['event_crm_lead_updated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.lead.deleted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.lead.deleted
     * @description A lead was deleted.
     */
    post: operations['event_crm_lead_deleted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.lead.stage_changed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.lead.stage_changed
     * @description A lead moved to another stage (`changes.stageId` is [from, to]; also status and closedAt when they change).
     */
    post: operations['event_crm_lead_stage_changed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.lead.assigned': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.lead.assigned
     * @description A lead’s assignee changed (`changes.assigneeId`; to null when unassigned).
     */
    post: operations['event_crm_lead_assigned'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.lead.won': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.lead.won
     * @description A lead entered its pipeline’s won stage (after its `stage_changed`).
     */
    post: operations['event_crm_lead_won'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.lead.lost': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.lead.lost
     * @description A lead entered its pipeline’s lost stage (after its `stage_changed`).
     */
    post: operations['event_crm_lead_lost'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.lead.tagged': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.lead.tagged
     * @description Tags were attached to a lead (`tags` lists the ones added).
     */
    post: operations['event_crm_lead_tagged'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.lead.untagged': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.lead.untagged
     * @description Tags were detached from a lead (`tags` lists the ones removed).
     */
    post: operations['event_crm_lead_untagged'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.pipeline.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.pipeline.created
     * @description A pipeline was created.
     */
    post: operations['event_crm_pipeline_created'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.pipeline.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.pipeline.updated
     * @description A pipeline was renamed or its stages changed (added, edited, removed or reordered; `changes` names name or stages).
     */
    post: operations['event_crm_pipeline_updated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.pipeline.deleted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.pipeline.deleted
     * @description An empty pipeline was deleted.
     */
    post: operations['event_crm_pipeline_deleted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.task.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.task.created
     * @description A task was created.
     */
    post: operations['event_crm_task_created'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.task.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.task.updated
     * @description A task’s fields changed (`changes` names them).
     */
    post: operations['event_crm_task_updated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.task.completed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.task.completed
     * @description A task was completed.
     */
    post: operations['event_crm_task_completed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.task.deleted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.task.deleted
     * @description A task was deleted.
     */
    post: operations['event_crm_task_deleted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.task.due': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.task.due
     * @description An open task reached its due time: sent once per due time, by the task timer.
     */
    post: operations['event_crm_task_due'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.activity.added': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.activity.added
     * @description An activity was logged on a lead or customer: through the API, or by Parley for a stage change or a completed task.
     */
    post: operations['event_crm_activity_added'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'crm.activity.deleted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * crm.activity.deleted
     * @description An activity added through the API was deleted.
     */
    post: operations['event_crm_activity_deleted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'channel.account.connected': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * channel.account.connected
     * @description A channel account was created (accounts start connected) or reconnected.
     */
    post: operations['event_channel_account_connected'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'channel.account.disconnected': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * channel.account.disconnected
     * @description A channel account was disconnected: replies through it fail with `channel_disconnected`.
     */
    post: operations['event_channel_account_disconnected'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'channel.account.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * channel.account.updated
     * @description A channel account’s name, rate, config or secrets changed (`changes` names the fields; secret values never appear).
     */
    post: operations['event_channel_account_updated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'channel.account.errored': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * channel.account.errored
     * @description A provider refused the account (e.g. an SMTP login, or a 401/403/410 from the api URL): `account.lastError` says why.
     */
    post: operations['event_channel_account_errored'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'channel.account.deleted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * channel.account.deleted
     * @description A channel account was deleted.
     */
    post: operations['event_channel_account_deleted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'channel.message.status_changed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * channel.message.status_changed
     * @description An outgoing message’s `deliveryStatus` changed (`changes.deliveryStatus` is `[before, after]`); sent with each of the four below.
     */
    post: operations['event_channel_message_status_changed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'channel.message.sent': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * channel.message.sent
     * @description The channel accepted an outgoing message.
     */
    post: operations['event_channel_message_sent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'channel.message.delivered': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * channel.message.delivered
     * @description The channel reported the message delivered.
     */
    post: operations['event_channel_message_delivered'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'channel.message.read': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * channel.message.read
     * @description The channel reported the message read.
     */
    post: operations['event_channel_message_read'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'channel.message.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * channel.message.failed
     * @description An outgoing message failed for good: `message.failureReason` says why.
     */
    post: operations['event_channel_message_failed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'workflow.definition.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * workflow.definition.created
     * @description A workflow was created.
     */
    post: operations['event_workflow_definition_created'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'workflow.definition.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * workflow.definition.updated
     * @description A workflow changed (a new `version`; `changes.version` is `[old, new]`).
     */
    post: operations['event_workflow_definition_updated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'workflow.definition.activated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * workflow.definition.activated
     * @description A workflow was activated.
     */
    post: operations['event_workflow_definition_activated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'workflow.definition.deactivated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * workflow.definition.deactivated
     * @description A workflow was deactivated.
     */
    post: operations['event_workflow_definition_deactivated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'workflow.definition.deleted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * workflow.definition.deleted
     * @description A workflow was deleted (its executions and versions stay readable).
     */
    post: operations['event_workflow_definition_deleted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'workflow.execution.started': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * workflow.execution.started
     * @description A workflow run started.
     */
    post: operations['event_workflow_execution_started'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'workflow.execution.completed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * workflow.execution.completed
     * @description A workflow run completed, `completed` or `completed_with_errors` (an on_error node let errors pass).
     */
    post: operations['event_workflow_execution_completed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'workflow.execution.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * workflow.execution.failed
     * @description A workflow run failed.
     */
    post: operations['event_workflow_execution_failed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'workflow.execution.cancelled': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * workflow.execution.cancelled
     * @description A workflow run was cancelled.
     */
    post: operations['event_workflow_execution_cancelled'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'workflow.step.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * workflow.step.failed
     * @description A step of a workflow run failed (`step.handledBy` names the container that retried, caught or logged it).
     */
    post: operations['event_workflow_step_failed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'ai.article.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * ai.article.created
     * @description A knowledge-base article was created.
     */
    post: operations['event_ai_article_created'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'ai.article.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * ai.article.updated
     * @description A knowledge-base article changed (`changes` names the fields).
     */
    post: operations['event_ai_article_updated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'ai.article.deleted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * ai.article.deleted
     * @description A knowledge-base article was deleted.
     */
    post: operations['event_ai_article_deleted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'broadcast.campaign.scheduled': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * broadcast.campaign.scheduled
     * @description A broadcast was scheduled (or its time moved): `campaign.scheduledAt`.
     */
    post: operations['event_broadcast_campaign_scheduled'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'broadcast.campaign.sending': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * broadcast.campaign.sending
     * @description A broadcast started sending: on `send`, or when its scheduled time came.
     */
    post: operations['event_broadcast_campaign_sending'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'broadcast.campaign.sent': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * broadcast.campaign.sent
     * @description Every recipient of a broadcast has an outcome, and at least one was sent to (or none was left to try).
     */
    post: operations['event_broadcast_campaign_sent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'broadcast.campaign.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * broadcast.campaign.failed
     * @description A broadcast ended without reaching any recipient it tried: `campaign.failureReason`.
     */
    post: operations['event_broadcast_campaign_failed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'broadcast.campaign.cancelled': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * broadcast.campaign.cancelled
     * @description A broadcast was cancelled; recipients not yet sent to never are.
     */
    post: operations['event_broadcast_campaign_cancelled'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'broadcast.recipient.delivered': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * broadcast.recipient.delivered
     * @description The channel reported a broadcast delivered to a recipient.
     */
    post: operations['event_broadcast_recipient_delivered'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'broadcast.recipient.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * broadcast.recipient.failed
     * @description A broadcast could not be sent to a recipient: `recipient.reason`.
     */
    post: operations['event_broadcast_recipient_failed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'scheduling.booking.reminder': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * scheduling.booking.reminder
     * @description A booking starts in 24 hours or in 1 hour (`reminder`); each is sent once, by timer.
     */
    post: operations['event_scheduling_booking_reminder'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'scheduling.booking.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * scheduling.booking.created
     * @description A booking was made.
     */
    post: operations['event_scheduling_booking_created'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'scheduling.booking.confirmed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * scheduling.booking.confirmed
     * @description A booking was confirmed.
     */
    post: operations['event_scheduling_booking_confirmed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'scheduling.booking.rescheduled': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * scheduling.booking.rescheduled
     * @description A booking moved to another time.
     */
    post: operations['event_scheduling_booking_rescheduled'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'scheduling.booking.cancelled': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * scheduling.booking.cancelled
     * @description A booking was cancelled.
     */
    post: operations['event_scheduling_booking_cancelled'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'scheduling.booking.completed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * scheduling.booking.completed
     * @description A booked meeting took place.
     */
    post: operations['event_scheduling_booking_completed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'scheduling.booking.no_show': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * scheduling.booking.no_show
     * @description The customer did not show up for a booking.
     */
    post: operations['event_scheduling_booking_no_show'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'webhook.ping': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * webhook.ping
     * @description A test event sent by POST /integrations/webhooks/{id}/test to that subscription only, whatever its `events`. Not subscribable.
     */
    post: operations['event_webhook_ping'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    BadRequestError: {
      /** @enum {boolean} */
      success: false;
      error: {
        /** @enum {string} */
        code: 'BAD_REQUEST';
        message: string;
        details?: {
          [key: string]: unknown;
        };
      };
    };
    PayloadTooLargeError: {
      /** @enum {boolean} */
      success: false;
      error: {
        /** @enum {string} */
        code: 'PAYLOAD_TOO_LARGE';
        message: string;
        details?: {
          [key: string]: unknown;
        };
      };
    };
    ValidationErrorError: {
      /** @enum {boolean} */
      success: false;
      error: {
        /** @enum {string} */
        code: 'VALIDATION_ERROR';
        message: string;
        details?: {
          [key: string]: unknown;
        };
      };
    };
    InternalErrorError: {
      /** @enum {boolean} */
      success: false;
      error: {
        /** @enum {string} */
        code: 'INTERNAL_ERROR';
        message: string;
        details?: {
          [key: string]: unknown;
        };
      };
    };
    UnauthorizedError: {
      /** @enum {boolean} */
      success: false;
      error: {
        /** @enum {string} */
        code: 'UNAUTHORIZED';
        message: string;
        details?: {
          [key: string]: unknown;
        };
      };
    };
    TooManyRequestsError: {
      /** @enum {boolean} */
      success: false;
      error: {
        /** @enum {string} */
        code: 'TOO_MANY_REQUESTS';
        message: string;
        details?: {
          [key: string]: unknown;
        };
      };
    };
    ForbiddenOrWorkspaceAccessDeniedError: {
      /** @enum {boolean} */
      success: false;
      error: {
        /** @enum {string} */
        code: 'FORBIDDEN' | 'WORKSPACE_ACCESS_DENIED';
        message: string;
        details?: {
          [key: string]: unknown;
        };
      };
    };
    ConflictError: {
      /** @enum {boolean} */
      success: false;
      error: {
        /** @enum {string} */
        code: 'CONFLICT';
        message: string;
        details?: {
          [key: string]: unknown;
        };
      };
    };
    NotFoundError: {
      /** @enum {boolean} */
      success: false;
      error: {
        /** @enum {string} */
        code: 'NOT_FOUND';
        message: string;
        details?: {
          [key: string]: unknown;
        };
      };
    };
    Conversation: {
      _id: string;
      number: number;
      customerId: string;
      /** @enum {string} */
      channel: 'api' | 'email' | 'web' | 'sms' | 'whatsapp' | 'messenger' | 'instagram' | 'telegram';
      channelId: string | null;
      /** @enum {string} */
      status: 'open' | 'pending' | 'snoozed' | 'closed';
      /** Format: date-time */
      snoozedUntil: string | null;
      assigneeId: string | null;
      /** @enum {string} */
      priority: 'none' | 'low' | 'medium' | 'high' | 'urgent';
      subject: string | null;
      /** Format: date-time */
      lastMessageAt: string | null;
      unreadCount: number;
      messageCount: number;
      tagIds: string[];
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Tag: {
      _id: string;
      name: string;
      color: string;
      description: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Message: {
      _id: string;
      conversationId: string;
      /** @enum {string} */
      type: 'incoming' | 'outgoing' | 'note' | 'activity';
      private: boolean;
      content: string | null;
      attachments: {
        /** Format: uri */
        url: string;
        name: string;
        size: number;
        contentType: string;
      }[];
      /** @enum {string|null} */
      deliveryStatus: 'received' | 'pending' | 'sent' | 'delivered' | 'read' | 'failed' | null;
      failureReason: string | null;
      author: {
        /** @enum {string} */
        type: 'customer' | 'token' | 'system' | 'ai';
        id: string | null;
      };
      externalId: string | null;
      /** Format: date-time */
      createdAt: string;
    };
    Customer: {
      _id: string;
      name: string | null;
      email: string | null;
      phone: string | null;
      externalId: string | null;
      attributes: {
        [key: string]: string | number | boolean;
      };
      identities: {
        /** @enum {string} */
        channel: 'api' | 'email' | 'web' | 'sms' | 'whatsapp' | 'messenger' | 'instagram' | 'telegram';
        identifier: string;
      }[];
      tagIds: string[];
      blocked: boolean;
      /** Format: date-time */
      lastActivityAt: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Workspace: {
      _id: string;
      name: string;
      timezone: string;
      locale: string;
      businessHours: {
        monday: {
          start: string;
          end: string;
        }[];
        tuesday: {
          start: string;
          end: string;
        }[];
        wednesday: {
          start: string;
          end: string;
        }[];
        thursday: {
          start: string;
          end: string;
        }[];
        friday: {
          start: string;
          end: string;
        }[];
        saturday: {
          start: string;
          end: string;
        }[];
        sunday: {
          start: string;
          end: string;
        }[];
      };
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Token: {
      _id: string;
      name: string;
      prefix: string;
      /** @enum {string} */
      environment: 'live' | 'test';
      scopes: string[];
      workspaceIds: string[];
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      expiresAt?: string;
      /** Format: date-time */
      revokedAt?: string;
    };
    Member: {
      _id: string;
      email: string;
      name: string | null;
      /** @enum {string} */
      role: 'owner' | 'admin' | 'manager' | 'agent';
      /** @enum {string} */
      status: 'invited' | 'active' | 'removed';
      /** Format: date-time */
      invitedAt: string;
      /** Format: date-time */
      joinedAt: string | null;
      /** Format: date-time */
      removedAt: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Lead: {
      _id: string;
      title: string;
      pipelineId: string;
      stageId: string;
      /** @enum {string} */
      status: 'open' | 'won' | 'lost';
      value: {
        amount: number;
        currency: string;
      } | null;
      customerId: string | null;
      conversationId: string | null;
      assigneeId: string | null;
      source: string | null;
      /** Format: date */
      expectedCloseDate: string | null;
      lostReason: string | null;
      tagIds: string[];
      attributes: {
        [key: string]: string | number | boolean;
      };
      /** Format: date-time */
      stageEnteredAt: string;
      /** Format: date-time */
      closedAt: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Pipeline: {
      _id: string;
      name: string;
      stages: components['schemas']['Stage'][];
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Stage: {
      _id: string;
      name: string;
      /** @enum {string} */
      kind: 'open' | 'won' | 'lost';
      probability: number;
      position: number;
    };
    Task: {
      _id: string;
      title: string;
      description: string | null;
      /** @enum {string} */
      status: 'open' | 'completed';
      /** @enum {string} */
      priority: 'low' | 'normal' | 'high' | 'urgent';
      /** Format: date-time */
      dueAt: string | null;
      assigneeId: string | null;
      leadId: string | null;
      customerId: string | null;
      conversationId: string | null;
      /** Format: date-time */
      completedAt: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Activity: {
      _id: string;
      /** @enum {string} */
      type: 'note' | 'call' | 'email' | 'meeting' | 'stage_change' | 'task_completed';
      leadId: string | null;
      customerId: string | null;
      subject: string | null;
      body: string | null;
      /** Format: date-time */
      occurredAt: string;
      durationSeconds: number | null;
      details: {
        [key: string]: string | null;
      } | null;
      /** Format: date-time */
      createdAt: string;
    };
    ChannelAccount: {
      _id: string;
      /** @enum {string} */
      type: 'api' | 'email' | 'sandbox';
      name: string;
      /** @enum {string} */
      status: 'connected' | 'disconnected' | 'error';
      config:
        | {
            /** Format: uri */
            url: string;
          }
        | {
            /** Format: email */
            from: string;
            host: string;
            port: number;
            /** @default false */
            secure: boolean;
            username?: string;
          }
        | {
            /** @default true */
            deliver: boolean;
            /** @default false */
            read: boolean;
            /** @default null */
            failWith: string | null;
          };
      ratePerSecond: number;
      secretNames: ('signingSecret' | 'smtpPassword')[];
      lastError: {
        reason: string;
        /** Format: date-time */
        at: string;
      } | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Workflow: {
      _id: string;
      name: string;
      description?: string;
      active: boolean;
      version: number;
      trigger:
        | {
            /** @enum {string} */
            type: 'event';
            eventTypes: string[];
            filter?: {
              [key: string]: string | number | boolean | null;
            };
          }
        | {
            /** @enum {string} */
            type: 'manual';
          }
        | {
            /** @enum {string} */
            type: 'schedule';
            cron: string;
            timezone: string;
          };
      nodes: {
        id: string;
        /** @enum {string} */
        type:
          | 'http_request'
          | 'send_message'
          | 'add_note'
          | 'assign_conversation'
          | 'change_conversation_status'
          | 'add_tags'
          | 'create_task'
          | 'move_lead'
          | 'set_variable'
          | 'wait'
          | 'condition'
          | 'fail'
          | 'try_catch'
          | 'retry'
          | 'on_error';
        name?: string;
        /** @description The node’s settings, checked against its type’s fields when the workflow is saved (a wrong one answers 422 naming `nodes[i].config.<field>`). String values may hold `{{path}}` templates.
         *     - `http_request`: method, url, headers?, body?
         *     - `send_message`: conversationId, content
         *     - `add_note`: conversationId, content
         *     - `assign_conversation`: conversationId, assigneeId
         *     - `change_conversation_status`: conversationId, status, snoozedUntil?
         *     - `add_tags`: entityType, entityId, tagIds
         *     - `create_task`: title, description?, priority?, dueAt?, assigneeId?, leadId?, customerId?, conversationId?
         *     - `move_lead`: leadId, stageId, pipelineId?, lostReason?
         *     - `set_variable`: name, value
         *     - `wait`: seconds
         *     - `condition`: left, operator, right?
         *     - `fail`: message
         *     - `try_catch`: categorize?
         *     - `retry`: maxAttempts, backoff, baseDelaySeconds, categories?
         *     - `on_error`: action, targets?, assigneeId?
         *     For `retry`, `maxAttempts` (1–10) is the maximum number of retries after the first try, not of tries: `maxAttempts: 2` makes up to 3 tries. */
        config: {
          [key: string]: unknown;
        };
      }[];
      edges: {
        from: string;
        to: string;
        /** @enum {string} */
        branch: 'next' | 'true' | 'false' | 'try' | 'catch' | 'body';
      }[];
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    WorkflowExecution: {
      _id: string;
      workflowId: string;
      workflowVersion: number;
      /** @enum {string} */
      status: 'queued' | 'running' | 'waiting' | 'completed' | 'completed_with_errors' | 'failed' | 'cancelled';
      trigger: {
        /** @enum {string} */
        type: 'event' | 'manual' | 'schedule';
        eventId?: string;
        payload?: unknown;
      };
      depth: number;
      /** Format: date-time */
      startedAt: string;
      /** Format: date-time */
      endedAt?: string;
      error?: {
        message: string;
        /** @enum {string} */
        category: 'network' | 'auth' | 'validation' | 'rate_limit' | 'not_found' | 'other';
        nodeId: string;
        nodeType: string;
      };
    };
    WorkflowStep: {
      nodeId: string;
      nodeType: string;
      attempt: number;
      /** @enum {string} */
      status: 'succeeded' | 'failed' | 'skipped';
      /** Format: date-time */
      startedAt: string;
      /** Format: date-time */
      endedAt: string;
      delayBeforeMs: number;
      output?: unknown;
      error?: {
        message: string;
        /** @enum {string} */
        category: 'network' | 'auth' | 'validation' | 'rate_limit' | 'not_found' | 'other';
      };
      handledBy?: string;
    };
    Article: {
      _id: string;
      title: string;
      body: string;
      tags: string[];
      published: boolean;
      locale: string;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Broadcast: {
      _id: string;
      name: string;
      channelId: string;
      audience: {
        tagIds?: string[];
        customerIds?: string[];
      };
      content: string;
      subject: string | null;
      /** @enum {string} */
      status: 'draft' | 'scheduled' | 'sending' | 'sent' | 'failed' | 'cancelled';
      /** Format: date-time */
      scheduledAt: string | null;
      /** Format: date-time */
      startedAt: string | null;
      /** Format: date-time */
      completedAt: string | null;
      failureReason: string | null;
      stats: {
        recipients: number;
        sent: number;
        delivered: number;
        read: number;
        failed: number;
        skipped: number;
        cancelled: number;
      };
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    BroadcastRecipient: {
      broadcastId: string;
      customerId: string;
      /** @enum {string} */
      status: 'queued' | 'sending' | 'sent' | 'delivered' | 'read' | 'failed' | 'skipped' | 'cancelled';
      reason: string | null;
      /** Format: date-time */
      sentAt: string | null;
      /** Format: date-time */
      updatedAt: string;
    };
    Booking: {
      _id: string;
      title: string;
      customerId: string;
      assigneeId: string;
      /** Format: date-time */
      startAt: string;
      /** Format: date-time */
      endAt: string;
      timezone: string;
      location: string | null;
      notes: string | null;
      /** @enum {string} */
      status: 'pending' | 'confirmed' | 'cancelled' | 'completed' | 'no_show';
      cancellationReason: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    WebhookSubscription: {
      _id: string;
      workspaceId: string;
      livemode: boolean;
      url: string;
      events: string[];
      active: boolean;
      consecutiveFailures: number;
      /** Format: date-time */
      activatedAt?: string;
      /** Format: date-time */
      deactivatedAt?: string;
      /** @enum {string} */
      deactivationReason?: 'manual' | 'gone_410' | 'consecutive_failures';
      /**
       * Format: date-time
       * @description When the last rotation's overlap ends (or ended): until then the replaced secrets sign deliveries too
       */
      previousSecretsExpireAt?: string;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    TokenWorkspace: {
      _id: string;
      name: string;
      timezone: string;
      locale: string;
      businessHours: {
        monday: {
          start: string;
          end: string;
        }[];
        tuesday: {
          start: string;
          end: string;
        }[];
        wednesday: {
          start: string;
          end: string;
        }[];
        thursday: {
          start: string;
          end: string;
        }[];
        friday: {
          start: string;
          end: string;
        }[];
        saturday: {
          start: string;
          end: string;
        }[];
        sunday: {
          start: string;
          end: string;
        }[];
      };
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      livemode: boolean;
    };
    Pagination: {
      total: number;
      page: number;
      limit: number;
      pages: number;
      hasMore: boolean;
      nextCursor: string | null;
    };
    CallerToken: {
      _id: string;
      name: string;
      prefix: string;
      /** @enum {string} */
      environment: 'live' | 'test';
      livemode: boolean;
      scopes: string[];
      workspaceIds: string[];
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      expiresAt: string | null;
    };
    CreatedApiToken: {
      _id: string;
      name: string;
      prefix: string;
      /** @enum {string} */
      environment: 'live' | 'test';
      scopes: string[];
      workspaceIds: string[];
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      expiresAt?: string;
      /** Format: date-time */
      revokedAt?: string;
      /** @enum {string} */
      status: 'active' | 'revoked' | 'expired';
      livemode: boolean;
      /** @description The secret token: shown in this response only, never again */
      token: string;
    };
    ApiToken: {
      _id: string;
      name: string;
      prefix: string;
      /** @enum {string} */
      environment: 'live' | 'test';
      scopes: string[];
      workspaceIds: string[];
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      expiresAt?: string;
      /** Format: date-time */
      revokedAt?: string;
      /** @enum {string} */
      status: 'active' | 'revoked' | 'expired';
      livemode: boolean;
    };
    TagWithCounts: {
      _id: string;
      name: string;
      color: string;
      description: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      counts: {
        conversation: number;
        customer: number;
        lead: number;
      };
    };
    TagDeletion: {
      tag: components['schemas']['Tag'];
      /** @enum {boolean} */
      deleted: true;
      detached: {
        conversation: number;
        customer: number;
        lead: number;
      };
      complete: boolean;
    };
    BulkTaggingResult: {
      /** @enum {string} */
      action: 'tag' | 'untag';
      /** @enum {string} */
      entityType: 'conversation' | 'customer' | 'lead';
      tagIds: string[];
      changed: string[];
      unchanged: string[];
    };
    EntityTags: {
      tags: components['schemas']['Tag'][];
      changed: boolean;
    };
    WebhookSubscriptionWithSecret: {
      _id: string;
      workspaceId: string;
      livemode: boolean;
      url: string;
      events: string[];
      active: boolean;
      consecutiveFailures: number;
      /** Format: date-time */
      activatedAt?: string;
      /** Format: date-time */
      deactivatedAt?: string;
      /** @enum {string} */
      deactivationReason?: 'manual' | 'gone_410' | 'consecutive_failures';
      /**
       * Format: date-time
       * @description When the last rotation's overlap ends (or ended): until then the replaced secrets sign deliveries too
       */
      previousSecretsExpireAt?: string;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      secret: string;
    };
    WebhookEventType: {
      type: string;
      category: string;
      /** @enum {string} */
      status: 'available' | 'planned';
      /** @description Whether a subscription's `events` may name it (`webhook.ping` is sent by the test route alone) */
      subscribable: boolean;
      description: string;
      dataSchema: {
        [key: string]: unknown;
      };
    };
    WebhookEndpointHealth: {
      subscriptionId: string;
      active: boolean;
      /** @description Deliveries in a row whose first five attempts all failed; any success resets it */
      consecutiveFailures: number;
      /** @description The consecutive failures that deactivate the subscription */
      deactivateAfter: number;
      /** Format: date-time */
      deactivatedAt: string | null;
      /** @enum {string|null} */
      deactivationReason: 'manual' | 'gone_410' | 'consecutive_failures' | null;
      recent: {
        /** @description How many of the latest deliveries were looked at (at most 100) */
        deliveries: number;
        succeeded: number;
        failed: number;
        /** @description Pending or retrying */
        inProgress: number;
        /** @description succeeded / (succeeded + failed), to three decimals; null when none finished */
        successRate: number | null;
      };
    };
    Deleted: {
      _id: string;
      /** @enum {boolean} */
      deleted: true;
    };
    WebhookDelivery: {
      deliveryId: string;
      subscriptionId: string;
      eventId: string;
      eventType: string;
      /** @enum {string} */
      status: 'pending' | 'success' | 'failed' | 'retrying';
      httpStatus: number | null;
      latency: number | null;
      attemptNumber: number;
      /** Format: date-time */
      nextRetryAt: string | null;
      /**
       * Format: date-time
       * @description When the next attempt is due, for a pending or retrying delivery (its first, a retry, or a manual one); null once it succeeded or failed
       */
      nextAttemptAt: string | null;
      failureReason: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      attempts: components['schemas']['WebhookAttempt'][];
    };
    WebhookAttempt: {
      attemptNumber: number;
      /** @enum {string} */
      status: 'success' | 'failed';
      httpStatus?: number;
      latency: number;
      failureReason?: string;
      /** Format: date-time */
      at: string;
    };
    WebhookDeliverySummary: {
      deliveryId: string;
      subscriptionId: string;
      eventId: string;
      eventType: string;
      /** @enum {string} */
      status: 'pending' | 'success' | 'failed' | 'retrying';
      httpStatus: number | null;
      latency: number | null;
      attemptNumber: number;
      /** Format: date-time */
      nextRetryAt: string | null;
      /**
       * Format: date-time
       * @description When the next attempt is due, for a pending or retrying delivery (its first, a retry, or a manual one); null once it succeeded or failed
       */
      nextAttemptAt: string | null;
      failureReason: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    WebhookDeliveryDetail: {
      deliveryId: string;
      subscriptionId: string;
      eventId: string;
      eventType: string;
      /** @enum {string} */
      status: 'pending' | 'success' | 'failed' | 'retrying';
      httpStatus: number | null;
      latency: number | null;
      attemptNumber: number;
      /** Format: date-time */
      nextRetryAt: string | null;
      /**
       * Format: date-time
       * @description When the next attempt is due, for a pending or retrying delivery (its first, a retry, or a manual one); null once it succeeded or failed
       */
      nextAttemptAt: string | null;
      failureReason: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      attempts: components['schemas']['WebhookAttemptDetail'][];
    };
    WebhookAttemptDetail: {
      attemptNumber: number;
      /** @enum {string} */
      status: 'success' | 'failed';
      httpStatus?: number;
      latency: number;
      failureReason?: string;
      /** Format: date-time */
      at: string;
      request: {
        /** @description The headers sent, without the signature headers (derived from the secret) */
        headers: {
          [key: string]: string;
        };
        /** @description The first 4096 bytes of the body, as text */
        body: string;
        /** @description Whether the body was longer than 4096 bytes and was cut */
        bodyTruncated: boolean;
      };
      /** @description The body received; null when no response came (timeout, connection error) */
      response: {
        /** @description The first 4096 bytes of the body, as text */
        body: string;
        /** @description Whether the body was longer than 4096 bytes and was cut */
        bodyTruncated: boolean;
      } | null;
    };
    WebhookRecovery: {
      _id: string;
      /** Format: date-time */
      since: string;
      /** Format: date-time */
      until: string;
      /** @description Failed deliveries this call re-sent (at most 1000, the oldest first; call again for the rest) */
      deliveries: number;
    };
    PostedMessage: {
      message: components['schemas']['Message'];
      conversation: components['schemas']['Conversation'];
    };
    ReceivedMessage: {
      message: components['schemas']['Message'];
      conversation: components['schemas']['Conversation'];
      customer: components['schemas']['Customer'];
      duplicate: boolean;
    };
    CustomerMerge: {
      customer: components['schemas']['Customer'];
      mergedCustomerId: string;
      conversationsMoved: number;
      leadsMoved: number;
    };
    PipelineSummary: {
      pipelineId: string;
      stages: {
        stageId: string;
        name: string;
        /** @enum {string} */
        kind: 'open' | 'won' | 'lost';
        probability: number;
        count: number;
        values: {
          currency: string;
          amount: number;
          weightedAmount: number;
        }[];
      }[];
      count: number;
      values: {
        currency: string;
        amount: number;
        weightedAmount: number;
      }[];
    };
    StageStay: {
      pipelineId: string;
      stageId: string;
      /** Format: date-time */
      enteredAt: string;
      /** Format: date-time */
      exitedAt: string | null;
      durationSeconds: number | null;
    };
    WorkflowNotificationSecret: {
      secret: string;
    };
    WorkflowExecutionWithSteps: {
      _id: string;
      workflowId: string;
      workflowVersion: number;
      /** @enum {string} */
      status: 'queued' | 'running' | 'waiting' | 'completed' | 'completed_with_errors' | 'failed' | 'cancelled';
      trigger: {
        /** @enum {string} */
        type: 'event' | 'manual' | 'schedule';
        eventId?: string;
        payload?: unknown;
      };
      depth: number;
      /** Format: date-time */
      startedAt: string;
      /** Format: date-time */
      endedAt?: string;
      error?: {
        message: string;
        /** @enum {string} */
        category: 'network' | 'auth' | 'validation' | 'rate_limit' | 'not_found' | 'other';
        nodeId: string;
        nodeType: string;
      };
      steps: components['schemas']['WorkflowStep'][];
    };
    ArticleSummary: {
      _id: string;
      title: string;
      tags: string[];
      published: boolean;
      locale: string;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Passage: {
      articleId: string;
      title: string;
      text: string;
      locale: string;
      score: number;
      confidence: number;
    };
    Suggestion: {
      question: string;
      passages: components['schemas']['Passage'][];
      confidence: number;
      reply: string | null;
      decision:
        | {
            /** @enum {string} */
            action: 'reply';
          }
        | {
            /** @enum {string} */
            action: 'handoff';
            /** @enum {string} */
            reason: 'keyword' | 'low_confidence' | 'no_match';
            keywords?: string[];
          };
      messageIds: string[];
    };
    AiSettings: {
      enabled: boolean;
      /** @enum {string} */
      autoReply: 'off' | 'suggest' | 'auto';
      confidenceThreshold: number;
      handoffKeywords: string[];
      /** @enum {string} */
      tone: 'neutral' | 'friendly' | 'formal';
      language: string | null;
      /** @enum {string} */
      provider: 'extractive';
      /** Format: date-time */
      updatedAt: string | null;
    };
    ReportRange: {
      /** Format: date */
      from: string;
      /** Format: date */
      to: string;
      /** @enum {string} */
      interval: 'day' | 'week';
      timezone: string;
    };
    OverviewReport: {
      conversations: {
        opened: number;
        closed: number;
      };
      messages: {
        incoming: number;
        outgoing: number;
      };
      firstResponseSeconds: {
        median: number | null;
        p90: number | null;
      };
      resolutionSeconds: {
        median: number | null;
        p90: number | null;
      };
      leads: {
        created: number;
        won: number;
        lost: number;
        wonValue: {
          [key: string]: number;
        };
      };
      webhooks: {
        deliveries: number;
        succeeded: number;
        successRate: number | null;
      };
    };
    ConversationsReport: {
      opened: number;
      closed: number;
      incoming: number;
      outgoing: number;
      aiOutgoing: number;
      firstResponseSeconds: {
        median: number | null;
        p90: number | null;
        count: number;
      };
      resolutionSeconds: {
        median: number | null;
        p90: number | null;
        count: number;
      };
      series: {
        /** Format: date */
        start: string;
        /** Format: date */
        end: string;
        opened: number;
        closed: number;
        incoming: number;
        outgoing: number;
        aiOutgoing: number;
        firstResponseSeconds: {
          median: number | null;
          p90: number | null;
          count: number;
        };
        resolutionSeconds: {
          median: number | null;
          p90: number | null;
          count: number;
        };
      }[];
    };
    AgentReport: {
      assigneeId: string | null;
      conversationsAssigned: number;
      conversationsClosed: number;
      messagesSent: number;
      firstResponseSeconds: {
        median: number | null;
        p90: number | null;
        count: number;
      };
      resolutionSeconds: {
        median: number | null;
        p90: number | null;
        count: number;
      };
    };
    PipelineReport: {
      created: number;
      won: number;
      lost: number;
      wonValue: {
        [key: string]: number;
      };
      winRate: number | null;
      series: {
        /** Format: date */
        start: string;
        /** Format: date */
        end: string;
        created: number;
        won: number;
        lost: number;
        wonValue: {
          [key: string]: number;
        };
        winRate: number | null;
      }[];
      pipelines: {
        pipelineId: string;
        name: string | null;
        stages: {
          stageId: string;
          name: string | null;
          /** @enum {string} */
          kind: 'open' | 'won' | 'lost' | 'unknown';
          entered: number;
          conversionToNext: number | null;
        }[];
      }[];
    };
    WebhooksReport: {
      deliveries: number;
      succeeded: number;
      failed: number;
      successRate: number | null;
      attempts: number;
      latencyMs: {
        median: number | null;
        p90: number | null;
        count: number;
      };
      series: {
        /** Format: date */
        start: string;
        /** Format: date */
        end: string;
        deliveries: number;
        succeeded: number;
        failed: number;
        successRate: number | null;
        attempts: number;
        latencyMs: {
          median: number | null;
          p90: number | null;
          count: number;
        };
      }[];
    };
    ChannelAccountWithSecret: {
      _id: string;
      /** @enum {string} */
      type: 'api' | 'email' | 'sandbox';
      name: string;
      /** @enum {string} */
      status: 'connected' | 'disconnected' | 'error';
      config:
        | {
            /** Format: uri */
            url: string;
          }
        | {
            /** Format: email */
            from: string;
            host: string;
            port: number;
            /** @default false */
            secure: boolean;
            username?: string;
          }
        | {
            /** @default true */
            deliver: boolean;
            /** @default false */
            read: boolean;
            /** @default null */
            failWith: string | null;
          };
      ratePerSecond: number;
      secretNames: ('signingSecret' | 'smtpPassword')[];
      lastError: {
        reason: string;
        /** Format: date-time */
        at: string;
      } | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      signingSecret: string;
    };
    ChannelAccountStatus: {
      channelId: string;
      /** @enum {string} */
      type: 'api' | 'email' | 'sandbox';
      /** @enum {string} */
      status: 'connected' | 'disconnected' | 'error';
      canSend: boolean;
      lastError: {
        reason: string;
        /** Format: date-time */
        at: string;
      } | null;
      /** Format: date-time */
      updatedAt: string;
    };
    ChannelInbound:
      | {
          /** @enum {string} */
          type: 'message' | 'email';
          message: components['schemas']['Message'];
          conversation: components['schemas']['Conversation'];
          duplicate: boolean;
        }
      | {
          /** @enum {string} */
          type: 'status';
          applied: boolean;
        }
      | {
          /** @enum {string} */
          type: 'status';
          recipient?: components['schemas']['BroadcastRecipient'];
        };
    Availability: {
      assigneeId: string;
      timezone: string;
      durationMinutes: number;
      /** Format: date-time */
      from: string;
      /** Format: date-time */
      to: string;
      slots: {
        /** Format: date-time */
        startAt: string;
        /** Format: date-time */
        endAt: string;
      }[];
    };
  };
  responses: {
    /** @description BAD_REQUEST: Malformed JSON, a missing Content-Type or required field, or a missing or ill-formed x-workspace-id */
    BadRequestPublic: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "BAD_REQUEST",
         *         "message": "Request body is not valid JSON"
         *       }
         *     } */
        'application/json': components['schemas']['BadRequestError'];
      };
    };
    /** @description PAYLOAD_TOO_LARGE: The body is over 256 KB */
    PayloadTooLargePublic: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "PAYLOAD_TOO_LARGE",
         *         "message": "Request body exceeds 262144 bytes",
         *         "details": {
         *           "limitBytes": 262144
         *         }
         *       }
         *     } */
        'application/json': components['schemas']['PayloadTooLargeError'];
      };
    };
    /** @description VALIDATION_ERROR: A field is present but invalid (`details.errors[] {path, message}`) */
    ValidationErrorPublic: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "VALIDATION_ERROR",
         *         "message": "Validation failed: email: Invalid email address",
         *         "details": {
         *           "errors": [
         *             {
         *               "path": "email",
         *               "message": "Invalid email address"
         *             }
         *           ]
         *         }
         *       }
         *     } */
        'application/json': components['schemas']['ValidationErrorError'];
      };
    };
    /** @description INTERNAL_ERROR: Unexpected failure; `details.requestId` names the request */
    InternalErrorPublic: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "INTERNAL_ERROR",
         *         "message": "Internal server error",
         *         "details": {
         *           "requestId": "c0a8e3f1-5b7d-4e2a-9f61-2d8b4c7e9a10"
         *         }
         *       }
         *     } */
        'application/json': components['schemas']['InternalErrorError'];
      };
    };
    /** @description BAD_REQUEST: Malformed JSON, a missing Content-Type or required field, or a missing or ill-formed x-workspace-id */
    BadRequest: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "BAD_REQUEST",
         *         "message": "Request body is not valid JSON"
         *       }
         *     } */
        'application/json': components['schemas']['BadRequestError'];
      };
    };
    /** @description UNAUTHORIZED: Token missing, invalid, expired or revoked */
    Unauthorized: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "UNAUTHORIZED",
         *         "message": "Invalid API token"
         *       }
         *     } */
        'application/json': components['schemas']['UnauthorizedError'];
      };
    };
    /** @description PAYLOAD_TOO_LARGE: The body is over 256 KB */
    PayloadTooLarge: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "PAYLOAD_TOO_LARGE",
         *         "message": "Request body exceeds 262144 bytes",
         *         "details": {
         *           "limitBytes": 262144
         *         }
         *       }
         *     } */
        'application/json': components['schemas']['PayloadTooLargeError'];
      };
    };
    /** @description VALIDATION_ERROR: A field is present but invalid (`details.errors[] {path, message}`) */
    ValidationError: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "VALIDATION_ERROR",
         *         "message": "Validation failed: email: Invalid email address",
         *         "details": {
         *           "errors": [
         *             {
         *               "path": "email",
         *               "message": "Invalid email address"
         *             }
         *           ]
         *         }
         *       }
         *     } */
        'application/json': components['schemas']['ValidationErrorError'];
      };
    };
    /** @description TOO_MANY_REQUESTS: Rate limit exceeded; Retry-After holds the seconds to wait */
    TooManyRequests: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        'Retry-After': components['headers']['Retry-After.required'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "TOO_MANY_REQUESTS",
         *         "message": "Rate limit exceeded; retry after 157 seconds",
         *         "details": {
         *           "retryAfter": 157
         *         }
         *       }
         *     } */
        'application/json': components['schemas']['TooManyRequestsError'];
      };
    };
    /** @description INTERNAL_ERROR: Unexpected failure; `details.requestId` names the request */
    InternalError: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "INTERNAL_ERROR",
         *         "message": "Internal server error",
         *         "details": {
         *           "requestId": "c0a8e3f1-5b7d-4e2a-9f61-2d8b4c7e9a10"
         *         }
         *       }
         *     } */
        'application/json': components['schemas']['InternalErrorError'];
      };
    };
    /** @description BAD_REQUEST: Malformed JSON, a missing Content-Type or required field, or a missing or ill-formed x-workspace-id */
    BadRequestKeyed: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
        'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "BAD_REQUEST",
         *         "message": "Request body is not valid JSON"
         *       }
         *     } */
        'application/json': components['schemas']['BadRequestError'];
      };
    };
    /** @description FORBIDDEN: The token lacks the required scope (`details.requiredScope`); WORKSPACE_ACCESS_DENIED: The token has no access to the workspace */
    ForbiddenOrWorkspaceAccessDenied: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ForbiddenOrWorkspaceAccessDeniedError'];
      };
    };
    /** @description CONFLICT: A state conflict, or an Idempotency-Key reused with another body */
    ConflictKeyed: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
        'Retry-After': components['headers']['Retry-After'];
        'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "CONFLICT",
         *         "message": "Idempotency-Key \"order-4521-reply\" was already used for a different request (method, path or body)",
         *         "details": {
         *           "idempotencyKey": "order-4521-reply"
         *         }
         *       }
         *     } */
        'application/json': components['schemas']['ConflictError'];
      };
    };
    /** @description PAYLOAD_TOO_LARGE: The body is over 256 KB */
    PayloadTooLargeKeyed: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
        'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "PAYLOAD_TOO_LARGE",
         *         "message": "Request body exceeds 262144 bytes",
         *         "details": {
         *           "limitBytes": 262144
         *         }
         *       }
         *     } */
        'application/json': components['schemas']['PayloadTooLargeError'];
      };
    };
    /** @description VALIDATION_ERROR: A field is present but invalid (`details.errors[] {path, message}`) */
    ValidationErrorKeyed: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
        'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "VALIDATION_ERROR",
         *         "message": "Validation failed: email: Invalid email address",
         *         "details": {
         *           "errors": [
         *             {
         *               "path": "email",
         *               "message": "Invalid email address"
         *             }
         *           ]
         *         }
         *       }
         *     } */
        'application/json': components['schemas']['ValidationErrorError'];
      };
    };
    /** @description NOT_FOUND: Unknown id, or an id of another workspace */
    NotFound: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "NOT_FOUND",
         *         "message": "Conversation not found"
         *       }
         *     } */
        'application/json': components['schemas']['NotFoundError'];
      };
    };
    /** @description CONFLICT: A state conflict, or an Idempotency-Key reused with another body */
    Conflict: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "CONFLICT",
         *         "message": "Idempotency-Key \"order-4521-reply\" was already used for a different request (method, path or body)",
         *         "details": {
         *           "idempotencyKey": "order-4521-reply"
         *         }
         *       }
         *     } */
        'application/json': components['schemas']['ConflictError'];
      };
    };
    /** @description NOT_FOUND: Unknown id, or an id of another workspace */
    NotFoundKeyed: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
        'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "NOT_FOUND",
         *         "message": "Conversation not found"
         *       }
         *     } */
        'application/json': components['schemas']['NotFoundError'];
      };
    };
    /** @description UNAUTHORIZED: Token missing, invalid, expired or revoked */
    UnauthorizedAfterToken: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id.required'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        /** @example {
         *       "success": false,
         *       "error": {
         *         "code": "UNAUTHORIZED",
         *         "message": "Invalid API token"
         *       }
         *     } */
        'application/json': components['schemas']['UnauthorizedError'];
      };
    };
  };
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description The request id, also logged; quote it when reporting a problem */
    'X-Request-Id.required': string;
    /** @description Requests allowed in the current 15-minute window for this category */
    'X-RateLimit-Limit.required': number;
    /** @description Requests left in the current window */
    'X-RateLimit-Remaining.required': number;
    /** @description Unix time (seconds) at which the window resets */
    'X-RateLimit-Reset.required': number;
    /** @description On an answer replayed for a repeated Idempotency-Key */
    'Idempotent-Replayed': 'true';
    /** @description The file's name: `attachment; filename="…"` */
    'Content-Disposition.required': string;
    /** @description Seconds to wait before trying again */
    'Retry-After.required': number;
    /** @description Requests allowed in the current 15-minute window for this category */
    'X-RateLimit-Limit': number;
    /** @description Requests left in the current window */
    'X-RateLimit-Remaining': number;
    /** @description Unix time (seconds) at which the window resets */
    'X-RateLimit-Reset': number;
    /** @description Seconds to wait before trying again */
    'Retry-After': number;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  docsGetOpenapi: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The document itself (no success wrapper) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "openapi": "3.1.0",
           *       "info": {
           *         "title": "Parley API",
           *         "version": "1.0.0"
           *       },
           *       "paths": {
           *         "/api/v1/inbox/conversations": {
           *           "get": {
           *             "summary": "List conversations"
           *           }
           *         }
           *       }
           *     } */
          'application/json': {
            openapi: string;
            info: {
              title: string;
              version: string;
              description?: string;
              license?: {
                name: string;
                identifier?: string;
              };
            };
            servers?: {
              url: string;
              description?: string;
            }[];
            tags?: {
              name: string;
              description?: string;
            }[];
            'x-tagGroups'?: {
              name: string;
              tags: string[];
            }[];
            components?: {
              schemas?: {
                [key: string]: unknown;
              };
              responses?: {
                [key: string]: unknown;
              };
              parameters?: {
                [key: string]: unknown;
              };
              examples?: {
                [key: string]: unknown;
              };
              requestBodies?: {
                [key: string]: unknown;
              };
              headers?: {
                [key: string]: unknown;
              };
              securitySchemes?: {
                [key: string]: unknown;
              };
            };
            paths?: {
              [key: string]: unknown;
            };
            webhooks?: {
              [key: string]: unknown;
            };
          };
        };
      };
      400: components['responses']['BadRequestPublic'];
      413: components['responses']['PayloadTooLargePublic'];
      422: components['responses']['ValidationErrorPublic'];
      500: components['responses']['InternalErrorPublic'];
    };
  };
  authListWorkspaces: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "workspaces": [
           *           {
           *             "_id": "66a1f0c2b9e84d7a3c5e1f20",
           *             "name": "Northwind Coffee",
           *             "timezone": "Europe/Amsterdam",
           *             "locale": "en-GB",
           *             "businessHours": {
           *               "monday": [
           *                 {
           *                   "start": "09:00",
           *                   "end": "17:30"
           *                 }
           *               ],
           *               "tuesday": [
           *                 {
           *                   "start": "09:00",
           *                   "end": "17:30"
           *                 }
           *               ],
           *               "wednesday": [
           *                 {
           *                   "start": "09:00",
           *                   "end": "17:30"
           *                 }
           *               ],
           *               "thursday": [
           *                 {
           *                   "start": "09:00",
           *                   "end": "17:30"
           *                 }
           *               ],
           *               "friday": [
           *                 {
           *                   "start": "09:00",
           *                   "end": "16:00"
           *                 }
           *               ],
           *               "saturday": [],
           *               "sunday": []
           *             },
           *             "createdAt": "2026-03-02T09:00:00.000Z",
           *             "updatedAt": "2026-03-02T09:00:00.000Z",
           *             "livemode": true
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              workspaces: components['schemas']['TokenWorkspace'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  authGetToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "token": {
           *           "_id": "66a1f0c2b9e84d7a3c5e1f23",
           *           "name": "Helpdesk integration",
           *           "prefix": "sk_live_4eC39HqL",
           *           "environment": "live",
           *           "livemode": true,
           *           "scopes": [
           *             "inbox:read",
           *             "inbox:write",
           *             "contacts:read"
           *           ],
           *           "workspaceIds": [
           *             "66a1f0c2b9e84d7a3c5e1f20"
           *           ],
           *           "createdAt": "2026-03-02T09:00:00.000Z",
           *           "expiresAt": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              token: components['schemas']['CallerToken'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  authListTokens: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "tokens": [
           *           {
           *             "_id": "66a1f0c2b9e84d7a3c5e1f23",
           *             "name": "Helpdesk integration",
           *             "prefix": "sk_live_4eC39HqL",
           *             "environment": "live",
           *             "scopes": [
           *               "inbox:read",
           *               "inbox:write",
           *               "contacts:read"
           *             ],
           *             "workspaceIds": [
           *               "66a1f0c2b9e84d7a3c5e1f20"
           *             ],
           *             "createdAt": "2026-03-02T09:00:00.000Z",
           *             "status": "active",
           *             "livemode": true
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              tokens: components['schemas']['ApiToken'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  authCreateToken: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "name": "Helpdesk integration",
         *       "scopes": [
         *         "inbox:read",
         *         "inbox:write",
         *         "contacts:read"
         *       ],
         *       "workspaceIds": [
         *         "66a1f0c2b9e84d7a3c5e1f20"
         *       ]
         *     } */
        'application/json': {
          name: string;
          scopes: string[];
          workspaceIds?: string[];
          expiresAt?: string;
          test?: boolean;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "token": {
           *           "_id": "66a1f0c2b9e84d7a3c5e1f23",
           *           "name": "Helpdesk integration",
           *           "prefix": "sk_live_4eC39HqL",
           *           "environment": "live",
           *           "scopes": [
           *             "inbox:read",
           *             "inbox:write",
           *             "contacts:read"
           *           ],
           *           "workspaceIds": [
           *             "66a1f0c2b9e84d7a3c5e1f20"
           *           ],
           *           "createdAt": "2026-03-02T09:00:00.000Z",
           *           "status": "active",
           *           "livemode": true,
           *           "token": "sk_live_4eC39HqLyjWDarjtT1zdp7dcGb2uXnA5kVmPq8RsT0vW3xYz"
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              token: components['schemas']['CreatedApiToken'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  authRevokeToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "token": {
           *           "_id": "66a1f0c2b9e84d7a3c5e1f23",
           *           "name": "Helpdesk integration",
           *           "prefix": "sk_live_4eC39HqL",
           *           "environment": "live",
           *           "scopes": [
           *             "inbox:read",
           *             "inbox:write",
           *             "contacts:read"
           *           ],
           *           "workspaceIds": [
           *             "66a1f0c2b9e84d7a3c5e1f20"
           *           ],
           *           "createdAt": "2026-03-02T09:00:00.000Z",
           *           "status": "active",
           *           "livemode": true
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              token: components['schemas']['ApiToken'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsListTags: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              tags: components['schemas']['Tag'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsCreateTag: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "name": "Wholesale",
         *       "color": "#2e7d32",
         *       "description": "Cafés and shops that buy beans in bulk"
         *     } */
        'application/json': {
          name: string;
          color?: string;
          description?: string | null;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              tag: components['schemas']['Tag'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsGetTag: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "tag": {
           *           "_id": "66a0ff41c7b24e1d8a9f3c01",
           *           "name": "Wholesale",
           *           "color": "#2e7d32",
           *           "description": "Cafés and shops that buy beans in bulk",
           *           "createdAt": "2026-03-02T09:00:00.000Z",
           *           "updatedAt": "2026-03-02T09:00:00.000Z",
           *           "counts": {
           *             "conversation": 12,
           *             "customer": 31,
           *             "lead": 4
           *           }
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              tag: components['schemas']['TagWithCounts'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsDeleteTag: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "tag": {
           *           "_id": "66a0ff41c7b24e1d8a9f3c01",
           *           "name": "Wholesale",
           *           "color": "#2e7d32",
           *           "description": "Cafés and shops that buy beans in bulk",
           *           "createdAt": "2026-03-02T09:00:00.000Z",
           *           "updatedAt": "2026-03-02T09:00:00.000Z"
           *         },
           *         "deleted": true,
           *         "detached": {
           *           "conversation": 12,
           *           "customer": 31,
           *           "lead": 4
           *         },
           *         "complete": true
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: components['schemas']['TagDeletion'];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsUpdateTag: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "color": "#2e7d32"
         *     } */
        'application/json': {
          name?: string;
          color?: string;
          description?: string | null;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              tag: components['schemas']['Tag'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsBulkTag: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @enum {string} */
          entityType: 'conversation' | 'customer' | 'lead';
          entityIds: string[];
          tagIds: string[];
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              bulk: components['schemas']['BulkTaggingResult'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsBulkUntag: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @enum {string} */
          entityType: 'conversation' | 'customer' | 'lead';
          entityIds: string[];
          tagIds: string[];
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              bulk: components['schemas']['BulkTaggingResult'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsListConversationTags: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              tags: components['schemas']['Tag'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsTagConversation: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          tagIds: string[];
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: components['schemas']['EntityTags'];
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsUntagConversation: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        tagId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: components['schemas']['EntityTags'];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsListCustomerTags: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              tags: components['schemas']['Tag'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsTagCustomer: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          tagIds: string[];
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: components['schemas']['EntityTags'];
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsUntagCustomer: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        tagId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: components['schemas']['EntityTags'];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsListLeadTags: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              tags: components['schemas']['Tag'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsTagLead: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          tagIds: string[];
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: components['schemas']['EntityTags'];
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  tagsUntagLead: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        tagId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: components['schemas']['EntityTags'];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  webhooksListSubscriptions: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "subscriptions": [
           *           {
           *             "_id": "66a0fe12a3b4c5d6e7f80920",
           *             "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
           *             "livemode": true,
           *             "url": "https://hooks.bluebird.example/parley",
           *             "events": [
           *               "inbox.conversation.*",
           *               "crm.lead.won"
           *             ],
           *             "active": true,
           *             "consecutiveFailures": 0,
           *             "activatedAt": "2026-03-02T09:00:00.000Z",
           *             "createdAt": "2026-03-02T09:00:00.000Z",
           *             "updatedAt": "2026-03-02T09:00:00.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              subscriptions: components['schemas']['WebhookSubscription'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  webhooksCreateSubscription: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "url": "https://hooks.bluebird.example/parley",
         *       "events": [
         *         "inbox.conversation.*",
         *         "crm.lead.won"
         *       ],
         *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
         *       "active": true
         *     } */
        'application/json': {
          url: string;
          events: string[];
          secret?: string;
          active?: boolean;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              subscription: components['schemas']['WebhookSubscriptionWithSecret'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  webhooksListEventTypes: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "eventTypes": [
           *           {
           *             "type": "crm.lead.won",
           *             "category": "crm",
           *             "status": "available",
           *             "subscribable": true,
           *             "description": "A lead entered its pipeline’s won stage (after its `stage_changed`).",
           *             "dataSchema": {
           *               "type": "object",
           *               "properties": {
           *                 "lead": {
           *                   "$ref": "#/components/schemas/Lead"
           *                 }
           *               },
           *               "required": [
           *                 "lead"
           *               ],
           *               "additionalProperties": false
           *             }
           *           }
           *         ],
           *         "wildcards": [
           *           "*",
           *           "inbox.*",
           *           "crm.lead.*"
           *         ]
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              eventTypes: components['schemas']['WebhookEventType'][];
              wildcards: string[];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  webhooksGetSubscription: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              subscription: components['schemas']['WebhookSubscription'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  webhooksDeleteSubscription: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "subscription": {
           *           "_id": "66a0fe12a3b4c5d6e7f80920",
           *           "deleted": true
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              subscription: components['schemas']['Deleted'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  webhooksUpdateSubscription: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "events": [
         *         "inbox.conversation.*",
         *         "crm.lead.won"
         *       ]
         *     } */
        'application/json': {
          url?: string;
          events?: string[];
          active?: boolean;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              subscription: components['schemas']['WebhookSubscription'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  webhooksGetHealth: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "health": {
           *           "subscriptionId": "66a0fe12a3b4c5d6e7f80920",
           *           "active": true,
           *           "consecutiveFailures": 0,
           *           "deactivateAfter": 100,
           *           "deactivatedAt": null,
           *           "deactivationReason": null,
           *           "recent": {
           *             "deliveries": 100,
           *             "succeeded": 97,
           *             "failed": 2,
           *             "inProgress": 1,
           *             "successRate": 0.98
           *           }
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              health: components['schemas']['WebhookEndpointHealth'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  webhooksRotateSecret: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {} */
        'application/json': {
          /** @default 86400 */
          overlapSeconds?: number;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              subscription: components['schemas']['WebhookSubscriptionWithSecret'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  webhooksSendTestEvent: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              delivery: components['schemas']['WebhookDelivery'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  webhooksListDeliveries: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
        status?: 'pending' | 'success' | 'failed' | 'retrying';
        eventType?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "deliveries": [
           *           {
           *             "deliveryId": "66a2035e7d1c4f2a9b3e5d21",
           *             "subscriptionId": "66a0fe12a3b4c5d6e7f80920",
           *             "eventId": "66a2035e7d1c4f2a9b3e5d20",
           *             "eventType": "inbox.conversation.created",
           *             "status": "success",
           *             "httpStatus": 200,
           *             "latency": 142,
           *             "attemptNumber": 1,
           *             "nextRetryAt": null,
           *             "nextAttemptAt": null,
           *             "failureReason": null,
           *             "createdAt": "2026-03-10T08:14:05.000Z",
           *             "updatedAt": "2026-03-10T08:14:06.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              deliveries: components['schemas']['WebhookDeliverySummary'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  webhooksGetDelivery: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "delivery": {
           *           "deliveryId": "66a2035e7d1c4f2a9b3e5d21",
           *           "subscriptionId": "66a0fe12a3b4c5d6e7f80920",
           *           "eventId": "66a2035e7d1c4f2a9b3e5d20",
           *           "eventType": "inbox.conversation.created",
           *           "status": "success",
           *           "httpStatus": 200,
           *           "latency": 142,
           *           "attemptNumber": 1,
           *           "nextRetryAt": null,
           *           "nextAttemptAt": null,
           *           "failureReason": null,
           *           "createdAt": "2026-03-10T08:14:05.000Z",
           *           "updatedAt": "2026-03-10T08:14:06.000Z",
           *           "attempts": [
           *             {
           *               "attemptNumber": 1,
           *               "status": "success",
           *               "httpStatus": 200,
           *               "latency": 142,
           *               "at": "2026-03-10T08:14:06.000Z",
           *               "request": {
           *                 "headers": {
           *                   "content-type": "application/json",
           *                   "user-agent": "Parley-Webhooks/1.0",
           *                   "webhook-id": "66a2035e7d1c4f2a9b3e5d20",
           *                   "webhook-timestamp": "1773130445"
           *                 },
           *                 "body": "{\"id\":\"66a2035e7d1c4f2a9b3e5d20\",\"type\":\"inbox.conversation.created\",\"data\":{\"conversation\":{\"_id\":\"66a2035e7d1c4f2a9b3e5d10\",\"status\":\"open\"}}}",
           *                 "bodyTruncated": false
           *               },
           *               "response": {
           *                 "body": "{\"received\":true}",
           *                 "bodyTruncated": false
           *               }
           *             }
           *           ]
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              delivery: components['schemas']['WebhookDeliveryDetail'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  webhooksRecoverDeliveries: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "since": "2026-03-02T09:00:00.000Z",
         *       "until": "2026-03-11T00:00:00.000Z"
         *     } */
        'application/json': {
          /** Format: date-time */
          since: string;
          /** Format: date-time */
          until?: string;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "recovery": {
           *           "_id": "66a2ff00b1c2d3e4f5a6b7c8",
           *           "since": "2026-03-02T09:00:00.000Z",
           *           "until": "2026-03-11T00:00:00.000Z",
           *           "deliveries": 3
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              recovery: components['schemas']['WebhookRecovery'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  webhooksRetryDelivery: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              delivery: components['schemas']['WebhookDelivery'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  inboxListConversations: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
        status?: 'open' | 'pending' | 'snoozed' | 'closed';
        assigneeId?: string | 'none';
        channel?: 'api' | 'email' | 'web' | 'sms' | 'whatsapp' | 'messenger' | 'instagram' | 'telegram';
        customerId?: string;
        tagId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "conversations": [
           *           {
           *             "_id": "66a2035e7d1c4f2a9b3e5d10",
           *             "number": 1042,
           *             "customerId": "66a1f1d09c3a4b5e6f708192",
           *             "channel": "email",
           *             "channelId": "66a0fe12a3b4c5d6e7f80911",
           *             "status": "open",
           *             "snoozedUntil": null,
           *             "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
           *             "priority": "high",
           *             "subject": "Order #4521 has not arrived",
           *             "lastMessageAt": "2026-03-10T08:21:40.000Z",
           *             "unreadCount": 0,
           *             "messageCount": 2,
           *             "tagIds": [
           *               "66a0ff41c7b24e1d8a9f3c01"
           *             ],
           *             "createdAt": "2026-03-10T08:14:05.000Z",
           *             "updatedAt": "2026-03-10T08:21:40.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              conversations: components['schemas']['Conversation'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  inboxCreateConversation: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "customerId": "66a1f1d09c3a4b5e6f708192",
         *       "channel": "email",
         *       "channelId": "66a0fe12a3b4c5d6e7f80911",
         *       "subject": "Order #4521 has not arrived",
         *       "priority": "high",
         *       "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *       "status": "open"
         *     } */
        'application/json': {
          customerId: string;
          /** @enum {string} */
          channel?: 'api' | 'email' | 'web' | 'sms' | 'whatsapp' | 'messenger' | 'instagram' | 'telegram';
          channelId?: string;
          subject?: string | null;
          /** @enum {string} */
          priority?: 'none' | 'low' | 'medium' | 'high' | 'urgent';
          assigneeId?: string | null;
          /** @enum {string} */
          status?: 'open' | 'pending';
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              conversation: components['schemas']['Conversation'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  inboxGetConversation: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              conversation: components['schemas']['Conversation'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  inboxDeleteConversation: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "conversation": {
           *           "_id": "66a2035e7d1c4f2a9b3e5d10",
           *           "number": 1042,
           *           "customerId": "66a1f1d09c3a4b5e6f708192",
           *           "channel": "email",
           *           "channelId": "66a0fe12a3b4c5d6e7f80911",
           *           "status": "open",
           *           "snoozedUntil": null,
           *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
           *           "priority": "high",
           *           "subject": "Order #4521 has not arrived",
           *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
           *           "unreadCount": 0,
           *           "messageCount": 2,
           *           "tagIds": [
           *             "66a0ff41c7b24e1d8a9f3c01"
           *           ],
           *           "createdAt": "2026-03-10T08:14:05.000Z",
           *           "updatedAt": "2026-03-10T08:21:40.000Z"
           *         },
           *         "deleted": true
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              conversation: components['schemas']['Conversation'];
              /** @enum {boolean} */
              deleted: true;
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  inboxUpdateConversation: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "priority": "high"
         *     } */
        'application/json': {
          subject?: string | null;
          /** @enum {string} */
          priority?: 'none' | 'low' | 'medium' | 'high' | 'urgent';
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              conversation: components['schemas']['Conversation'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  inboxAssignConversation: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "assigneeId": "66a1f0c2b9e84d7a3c5e1f22"
         *     } */
        'application/json': {
          assigneeId: string;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              conversation: components['schemas']['Conversation'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  inboxUnassignConversation: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              conversation: components['schemas']['Conversation'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  inboxChangeConversationStatus: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "status": "open"
         *     } */
        'application/json': {
          /** @enum {string} */
          status: 'open' | 'pending' | 'snoozed' | 'closed';
          /** Format: date-time */
          snoozedUntil?: string;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              conversation: components['schemas']['Conversation'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  inboxListMessages: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "messages": [
           *           {
           *             "_id": "66a2035e7d1c4f2a9b3e5d12",
           *             "conversationId": "66a2035e7d1c4f2a9b3e5d10",
           *             "type": "outgoing",
           *             "private": false,
           *             "content": "Hi Maya, your order left our roastery this morning; tracking code NL-88213. Sorry for the wait!",
           *             "attachments": [],
           *             "deliveryStatus": "delivered",
           *             "failureReason": null,
           *             "author": {
           *               "type": "token",
           *               "id": "66a1f0c2b9e84d7a3c5e1f23"
           *             },
           *             "externalId": null,
           *             "createdAt": "2026-03-10T08:21:40.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              messages: components['schemas']['Message'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  inboxCreateMessage: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "type": "outgoing",
         *       "content": "Hi Maya, your order left our roastery this morning; tracking code NL-88213. Sorry for the wait!",
         *       "attachments": []
         *     } */
        'application/json': {
          /**
           * @default outgoing
           * @enum {string}
           */
          type?: 'outgoing' | 'note';
          content?: string;
          attachments?: {
            /** Format: uri */
            url: string;
            name: string;
            size: number;
            contentType: string;
          }[];
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "message": {
           *           "_id": "66a2035e7d1c4f2a9b3e5d12",
           *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
           *           "type": "outgoing",
           *           "private": false,
           *           "content": "Hi Maya, your order left our roastery this morning; tracking code NL-88213. Sorry for the wait!",
           *           "attachments": [],
           *           "deliveryStatus": "delivered",
           *           "failureReason": null,
           *           "author": {
           *             "type": "token",
           *             "id": "66a1f0c2b9e84d7a3c5e1f23"
           *           },
           *           "externalId": null,
           *           "createdAt": "2026-03-10T08:21:40.000Z"
           *         },
           *         "conversation": {
           *           "_id": "66a2035e7d1c4f2a9b3e5d10",
           *           "number": 1042,
           *           "customerId": "66a1f1d09c3a4b5e6f708192",
           *           "channel": "email",
           *           "channelId": "66a0fe12a3b4c5d6e7f80911",
           *           "status": "open",
           *           "snoozedUntil": null,
           *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
           *           "priority": "high",
           *           "subject": "Order #4521 has not arrived",
           *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
           *           "unreadCount": 0,
           *           "messageCount": 2,
           *           "tagIds": [
           *             "66a0ff41c7b24e1d8a9f3c01"
           *           ],
           *           "createdAt": "2026-03-10T08:14:05.000Z",
           *           "updatedAt": "2026-03-10T08:21:40.000Z"
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: components['schemas']['PostedMessage'];
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  inboxReceiveMessage: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "channel": "email",
         *       "customer": {
         *         "identifier": "maya.chen@bluebird.example",
         *         "name": "Maya Chen"
         *       },
         *       "externalId": "<CAF8kq2x7@mail.bluebird.example>",
         *       "content": "Hello, my order #4521 was due on Friday and has still not arrived. Can you check where it is?"
         *     } */
        'application/json': {
          /** @enum {string} */
          channel: 'api' | 'email' | 'web' | 'sms' | 'whatsapp' | 'messenger' | 'instagram' | 'telegram';
          customer: {
            identifier: string;
            name?: string;
            /** Format: email */
            email?: string;
            phone?: string;
          };
          externalId?: string;
          conversationId?: string;
          content?: string;
          attachments?: {
            /** Format: uri */
            url: string;
            name: string;
            size: number;
            contentType: string;
          }[];
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "message": {
           *           "_id": "66a2035e7d1c4f2a9b3e5d11",
           *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
           *           "type": "incoming",
           *           "private": false,
           *           "content": "Hello, my order #4521 was due on Friday and has still not arrived. Can you check where it is?",
           *           "attachments": [],
           *           "deliveryStatus": "received",
           *           "failureReason": null,
           *           "author": {
           *             "type": "customer",
           *             "id": "66a1f1d09c3a4b5e6f708192"
           *           },
           *           "externalId": "<CAF8kq2x7@mail.bluebird.example>",
           *           "createdAt": "2026-03-10T08:14:05.000Z"
           *         },
           *         "conversation": {
           *           "_id": "66a2035e7d1c4f2a9b3e5d10",
           *           "number": 1042,
           *           "customerId": "66a1f1d09c3a4b5e6f708192",
           *           "channel": "email",
           *           "channelId": "66a0fe12a3b4c5d6e7f80911",
           *           "status": "open",
           *           "snoozedUntil": null,
           *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
           *           "priority": "high",
           *           "subject": "Order #4521 has not arrived",
           *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
           *           "unreadCount": 0,
           *           "messageCount": 2,
           *           "tagIds": [
           *             "66a0ff41c7b24e1d8a9f3c01"
           *           ],
           *           "createdAt": "2026-03-10T08:14:05.000Z",
           *           "updatedAt": "2026-03-10T08:21:40.000Z"
           *         },
           *         "customer": {
           *           "_id": "66a1f1d09c3a4b5e6f708192",
           *           "name": "Maya Chen",
           *           "email": "maya.chen@bluebird.example",
           *           "phone": "+31612345678",
           *           "externalId": "shop-cust-10482",
           *           "attributes": {
           *             "plan": "wholesale",
           *             "city": "Utrecht",
           *             "ordersPlaced": 14
           *           },
           *           "identities": [
           *             {
           *               "channel": "email",
           *               "identifier": "maya.chen@bluebird.example"
           *             }
           *           ],
           *           "tagIds": [
           *             "66a0ff41c7b24e1d8a9f3c01"
           *           ],
           *           "blocked": false,
           *           "lastActivityAt": "2026-03-10T08:14:05.000Z",
           *           "createdAt": "2026-03-02T09:00:00.000Z",
           *           "updatedAt": "2026-03-10T08:14:05.000Z"
           *         },
           *         "duplicate": false
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: components['schemas']['ReceivedMessage'];
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  contactsListCustomers: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
        name?: string;
        email?: string;
        phone?: string;
        tagId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "customers": [
           *           {
           *             "_id": "66a1f1d09c3a4b5e6f708192",
           *             "name": "Maya Chen",
           *             "email": "maya.chen@bluebird.example",
           *             "phone": "+31612345678",
           *             "externalId": "shop-cust-10482",
           *             "attributes": {
           *               "plan": "wholesale",
           *               "city": "Utrecht",
           *               "ordersPlaced": 14
           *             },
           *             "identities": [
           *               {
           *                 "channel": "email",
           *                 "identifier": "maya.chen@bluebird.example"
           *               }
           *             ],
           *             "tagIds": [
           *               "66a0ff41c7b24e1d8a9f3c01"
           *             ],
           *             "blocked": false,
           *             "lastActivityAt": "2026-03-10T08:14:05.000Z",
           *             "createdAt": "2026-03-02T09:00:00.000Z",
           *             "updatedAt": "2026-03-10T08:14:05.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              customers: components['schemas']['Customer'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  contactsCreateCustomer: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "name": "Maya Chen",
         *       "email": "maya.chen@bluebird.example",
         *       "phone": "+31612345678",
         *       "externalId": "shop-cust-10482",
         *       "attributes": {
         *         "plan": "wholesale",
         *         "city": "Utrecht",
         *         "ordersPlaced": 14
         *       },
         *       "identities": [
         *         {
         *           "channel": "email",
         *           "identifier": "maya.chen@bluebird.example"
         *         }
         *       ]
         *     } */
        'application/json': {
          name?: string | null;
          /** Format: email */
          email?: string | null;
          phone?: string | null;
          externalId?: string | null;
          attributes?: {
            [key: string]: string | number | boolean | null;
          };
          identities?: {
            /** @enum {string} */
            channel: 'api' | 'email' | 'web' | 'sms' | 'whatsapp' | 'messenger' | 'instagram' | 'telegram';
            identifier: string;
          }[];
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              customer: components['schemas']['Customer'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  contactsMergeCustomers: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "baseId": "66a1f1d09c3a4b5e6f708192",
         *       "mergeeId": "66a1f1d09c3a4b5e6f708193"
         *     } */
        'application/json': {
          baseId: string;
          mergeeId: string;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "customer": {
           *           "_id": "66a1f1d09c3a4b5e6f708192",
           *           "name": "Maya Chen",
           *           "email": "maya.chen@bluebird.example",
           *           "phone": "+31612345678",
           *           "externalId": "shop-cust-10482",
           *           "attributes": {
           *             "plan": "wholesale",
           *             "city": "Utrecht",
           *             "ordersPlaced": 14
           *           },
           *           "identities": [
           *             {
           *               "channel": "email",
           *               "identifier": "maya.chen@bluebird.example"
           *             }
           *           ],
           *           "tagIds": [
           *             "66a0ff41c7b24e1d8a9f3c01"
           *           ],
           *           "blocked": false,
           *           "lastActivityAt": "2026-03-10T08:14:05.000Z",
           *           "createdAt": "2026-03-02T09:00:00.000Z",
           *           "updatedAt": "2026-03-10T08:14:05.000Z"
           *         },
           *         "mergedCustomerId": "66a1f1d09c3a4b5e6f708193",
           *         "conversationsMoved": 1,
           *         "leadsMoved": 0
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: components['schemas']['CustomerMerge'];
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  contactsGetCustomer: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              customer: components['schemas']['Customer'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  contactsDeleteCustomer: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "customer": {
           *           "_id": "66a1f1d09c3a4b5e6f708192",
           *           "name": "Maya Chen",
           *           "email": "maya.chen@bluebird.example",
           *           "phone": "+31612345678",
           *           "externalId": "shop-cust-10482",
           *           "attributes": {
           *             "plan": "wholesale",
           *             "city": "Utrecht",
           *             "ordersPlaced": 14
           *           },
           *           "identities": [
           *             {
           *               "channel": "email",
           *               "identifier": "maya.chen@bluebird.example"
           *             }
           *           ],
           *           "tagIds": [
           *             "66a0ff41c7b24e1d8a9f3c01"
           *           ],
           *           "blocked": false,
           *           "lastActivityAt": "2026-03-10T08:14:05.000Z",
           *           "createdAt": "2026-03-02T09:00:00.000Z",
           *           "updatedAt": "2026-03-10T08:14:05.000Z"
           *         },
           *         "deleted": true
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              customer: components['schemas']['Customer'];
              /** @enum {boolean} */
              deleted: true;
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  contactsUpdateCustomer: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "phone": "+31612345678",
         *       "attributes": {
         *         "plan": "wholesale",
         *         "city": "Utrecht",
         *         "ordersPlaced": 14
         *       }
         *     } */
        'application/json': {
          name?: string | null;
          /** Format: email */
          email?: string | null;
          phone?: string | null;
          externalId?: string | null;
          attributes?: {
            [key: string]: string | number | boolean | null;
          };
          identities?: {
            /** @enum {string} */
            channel: 'api' | 'email' | 'web' | 'sms' | 'whatsapp' | 'messenger' | 'instagram' | 'telegram';
            identifier: string;
          }[];
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              customer: components['schemas']['Customer'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  contactsBlockCustomer: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              customer: components['schemas']['Customer'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  contactsUnblockCustomer: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              customer: components['schemas']['Customer'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmListPipelines: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "pipelines": [
           *           {
           *             "_id": "66a0ff41c7b24e1d8a9f3c10",
           *             "name": "Wholesale",
           *             "stages": [
           *               {
           *                 "_id": "66a0ff41c7b24e1d8a9f3c11",
           *                 "name": "New enquiry",
           *                 "kind": "open",
           *                 "probability": 0.1,
           *                 "position": 0
           *               },
           *               {
           *                 "_id": "66a0ff41c7b24e1d8a9f3c12",
           *                 "name": "Proposal sent",
           *                 "kind": "open",
           *                 "probability": 0.5,
           *                 "position": 1
           *               },
           *               {
           *                 "_id": "66a0ff41c7b24e1d8a9f3c13",
           *                 "name": "Won",
           *                 "kind": "won",
           *                 "probability": 1,
           *                 "position": 2
           *               },
           *               {
           *                 "_id": "66a0ff41c7b24e1d8a9f3c14",
           *                 "name": "Lost",
           *                 "kind": "lost",
           *                 "probability": 0,
           *                 "position": 3
           *               }
           *             ],
           *             "createdAt": "2026-03-02T09:00:00.000Z",
           *             "updatedAt": "2026-03-02T09:00:00.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              pipelines: components['schemas']['Pipeline'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmCreatePipeline: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "name": "Wholesale",
         *       "stages": [
         *         {
         *           "name": "New enquiry",
         *           "kind": "open",
         *           "probability": 0.1
         *         },
         *         {
         *           "name": "Proposal sent",
         *           "kind": "open",
         *           "probability": 0.5
         *         },
         *         {
         *           "name": "Won",
         *           "kind": "won",
         *           "probability": 1
         *         },
         *         {
         *           "name": "Lost",
         *           "kind": "lost",
         *           "probability": 0
         *         }
         *       ]
         *     } */
        'application/json': {
          name: string;
          stages?: {
            name: string;
            /**
             * @default open
             * @enum {string}
             */
            kind?: 'open' | 'won' | 'lost';
            probability?: number;
          }[];
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              pipeline: components['schemas']['Pipeline'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmGetPipeline: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              pipeline: components['schemas']['Pipeline'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmDeletePipeline: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              pipeline: components['schemas']['Pipeline'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmUpdatePipeline: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "name": "Wholesale"
         *     } */
        'application/json': {
          name?: string;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              pipeline: components['schemas']['Pipeline'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmGetPipelineSummary: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "summary": {
           *           "pipelineId": "66a0ff41c7b24e1d8a9f3c10",
           *           "stages": [
           *             {
           *               "stageId": "66a0ff41c7b24e1d8a9f3c11",
           *               "name": "New enquiry",
           *               "kind": "open",
           *               "probability": 0.1,
           *               "count": 0,
           *               "values": []
           *             },
           *             {
           *               "stageId": "66a0ff41c7b24e1d8a9f3c12",
           *               "name": "Proposal sent",
           *               "kind": "open",
           *               "probability": 0.5,
           *               "count": 1,
           *               "values": [
           *                 {
           *                   "currency": "EUR",
           *                   "amount": 240000,
           *                   "weightedAmount": 120000
           *                 }
           *               ]
           *             }
           *           ],
           *           "count": 1,
           *           "values": [
           *             {
           *               "currency": "EUR",
           *               "amount": 240000,
           *               "weightedAmount": 120000
           *             }
           *           ]
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              summary: components['schemas']['PipelineSummary'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmCreateStage: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "name": "Proposal sent",
         *       "kind": "open",
         *       "probability": 0.5,
         *       "position": 1
         *     } */
        'application/json': {
          name: string;
          /**
           * @default open
           * @enum {string}
           */
          kind?: 'open' | 'won' | 'lost';
          probability?: number;
          position?: number;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              pipeline: components['schemas']['Pipeline'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmReorderStages: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "stageIds": [
         *         "66a0ff41c7b24e1d8a9f3c11",
         *         "66a0ff41c7b24e1d8a9f3c12",
         *         "66a0ff41c7b24e1d8a9f3c13",
         *         "66a0ff41c7b24e1d8a9f3c14"
         *       ]
         *     } */
        'application/json': {
          stageIds: string[];
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              pipeline: components['schemas']['Pipeline'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmDeleteStage: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        stageId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              pipeline: components['schemas']['Pipeline'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmUpdateStage: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
        stageId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "probability": 0.5
         *     } */
        'application/json': {
          name?: string;
          /** @enum {string} */
          kind?: 'open' | 'won' | 'lost';
          probability?: number;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              pipeline: components['schemas']['Pipeline'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmListLeads: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
        pipelineId?: string;
        stageId?: string;
        status?: 'open' | 'won' | 'lost';
        assigneeId?: string | 'none';
        customerId?: string;
        tagId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "leads": [
           *           {
           *             "_id": "66a2101b3e4f5a6b7c8d9e01",
           *             "title": "Bluebird Café: monthly espresso blend",
           *             "pipelineId": "66a0ff41c7b24e1d8a9f3c10",
           *             "stageId": "66a0ff41c7b24e1d8a9f3c12",
           *             "status": "open",
           *             "value": {
           *               "amount": 240000,
           *               "currency": "EUR"
           *             },
           *             "customerId": "66a1f1d09c3a4b5e6f708192",
           *             "conversationId": "66a2035e7d1c4f2a9b3e5d10",
           *             "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
           *             "source": "email",
           *             "expectedCloseDate": "2026-03-31",
           *             "lostReason": null,
           *             "tagIds": [
           *               "66a0ff41c7b24e1d8a9f3c01"
           *             ],
           *             "attributes": {
           *               "bagsPerMonth": 40
           *             },
           *             "stageEnteredAt": "2026-03-10T08:21:40.000Z",
           *             "closedAt": null,
           *             "createdAt": "2026-03-10T08:14:05.000Z",
           *             "updatedAt": "2026-03-10T08:21:40.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              leads: components['schemas']['Lead'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmCreateLead: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "title": "Bluebird Café: monthly espresso blend",
         *       "pipelineId": "66a0ff41c7b24e1d8a9f3c10",
         *       "stageId": "66a0ff41c7b24e1d8a9f3c12",
         *       "value": {
         *         "amount": 240000,
         *         "currency": "EUR"
         *       },
         *       "customerId": "66a1f1d09c3a4b5e6f708192",
         *       "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *       "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *       "source": "email",
         *       "expectedCloseDate": "2026-03-31",
         *       "lostReason": null,
         *       "attributes": {
         *         "bagsPerMonth": 40
         *       }
         *     } */
        'application/json': {
          title: string;
          pipelineId: string;
          stageId?: string;
          value?: {
            amount: number;
            currency: string;
          } | null;
          customerId?: string | null;
          conversationId?: string | null;
          assigneeId?: string | null;
          source?: string | null;
          /** Format: date */
          expectedCloseDate?: string | null;
          lostReason?: string | null;
          attributes?: {
            [key: string]: string | number | boolean | null;
          };
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              lead: components['schemas']['Lead'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmGetLead: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              lead: components['schemas']['Lead'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmDeleteLead: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              lead: components['schemas']['Lead'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmUpdateLead: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "value": {
         *         "amount": 240000,
         *         "currency": "EUR"
         *       },
         *       "expectedCloseDate": "2026-03-31"
         *     } */
        'application/json': {
          title?: string;
          value?: {
            amount: number;
            currency: string;
          } | null;
          customerId?: string | null;
          conversationId?: string | null;
          assigneeId?: string | null;
          source?: string | null;
          /** Format: date */
          expectedCloseDate?: string | null;
          lostReason?: string | null;
          attributes?: {
            [key: string]: string | number | boolean | null;
          };
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              lead: components['schemas']['Lead'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmMoveLead: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "stageId": "66a0ff41c7b24e1d8a9f3c12",
         *       "pipelineId": "66a0ff41c7b24e1d8a9f3c10"
         *     } */
        'application/json': {
          stageId: string;
          pipelineId?: string;
          lostReason?: string;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              lead: components['schemas']['Lead'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmListStageHistory: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "history": [
           *           {
           *             "pipelineId": "66a0ff41c7b24e1d8a9f3c10",
           *             "stageId": "66a0ff41c7b24e1d8a9f3c11",
           *             "enteredAt": "2026-03-10T08:14:05.000Z",
           *             "exitedAt": "2026-03-10T08:21:40.000Z",
           *             "durationSeconds": 455
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              history: components['schemas']['StageStay'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmListLeadActivities: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              activities: components['schemas']['Activity'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmListTasks: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
        status?: 'open' | 'completed';
        assigneeId?: string | 'none';
        leadId?: string;
        overdue?: 'true' | 'false';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "tasks": [
           *           {
           *             "_id": "66a2101b3e4f5a6b7c8d9e02",
           *             "title": "Send Bluebird the wholesale price list",
           *             "description": "Include the 5 kg bag options.",
           *             "status": "open",
           *             "priority": "high",
           *             "dueAt": "2026-03-12T15:00:00.000Z",
           *             "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
           *             "leadId": "66a2101b3e4f5a6b7c8d9e01",
           *             "customerId": "66a1f1d09c3a4b5e6f708192",
           *             "conversationId": "66a2035e7d1c4f2a9b3e5d10",
           *             "completedAt": null,
           *             "createdAt": "2026-03-10T08:21:40.000Z",
           *             "updatedAt": "2026-03-10T08:21:40.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              tasks: components['schemas']['Task'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmCreateTask: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "title": "Send Bluebird the wholesale price list",
         *       "description": "Include the 5 kg bag options.",
         *       "priority": "high",
         *       "dueAt": "2026-03-12T15:00:00.000Z",
         *       "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *       "leadId": "66a2101b3e4f5a6b7c8d9e01",
         *       "customerId": "66a1f1d09c3a4b5e6f708192",
         *       "conversationId": "66a2035e7d1c4f2a9b3e5d10"
         *     } */
        'application/json': {
          title: string;
          description?: string | null;
          /** @enum {string} */
          priority?: 'low' | 'normal' | 'high' | 'urgent';
          /** Format: date-time */
          dueAt?: string | null;
          assigneeId?: string | null;
          leadId?: string | null;
          customerId?: string | null;
          conversationId?: string | null;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              task: components['schemas']['Task'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmGetTask: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              task: components['schemas']['Task'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmDeleteTask: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              task: components['schemas']['Task'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmUpdateTask: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "priority": "high",
         *       "dueAt": "2026-03-12T15:00:00.000Z"
         *     } */
        'application/json': {
          title?: string;
          description?: string | null;
          /** @enum {string} */
          priority?: 'low' | 'normal' | 'high' | 'urgent';
          /** Format: date-time */
          dueAt?: string | null;
          assigneeId?: string | null;
          leadId?: string | null;
          customerId?: string | null;
          conversationId?: string | null;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              task: components['schemas']['Task'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmCompleteTask: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              task: components['schemas']['Task'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmListActivities: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
        leadId?: string;
        customerId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              activities: components['schemas']['Activity'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmCreateActivity: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "type": "call",
         *       "leadId": "66a2101b3e4f5a6b7c8d9e01",
         *       "customerId": "66a1f1d09c3a4b5e6f708192",
         *       "subject": "Intro call with Maya",
         *       "body": "Wants 40 bags a month from April; asked for a tasting box.",
         *       "occurredAt": "2026-03-11T14:00:00.000Z",
         *       "durationSeconds": 900
         *     } */
        'application/json': {
          /** @enum {string} */
          type: 'note' | 'call' | 'email' | 'meeting';
          leadId?: string;
          customerId?: string;
          subject?: string;
          body?: string;
          /** Format: date-time */
          occurredAt?: string;
          durationSeconds?: number;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              activity: components['schemas']['Activity'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmGetActivity: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              activity: components['schemas']['Activity'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmDeleteActivity: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              activity: components['schemas']['Activity'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  crmListCustomerActivities: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              activities: components['schemas']['Activity'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workflowsListWorkflows: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "workflows": [
           *           {
           *             "_id": "66a0fe12a3b4c5d6e7f80930",
           *             "name": "Notify the roastery of urgent conversations",
           *             "description": "Posts urgent conversations to the roastery’s order system.",
           *             "active": true,
           *             "version": 2,
           *             "trigger": {
           *               "type": "event",
           *               "eventTypes": [
           *                 "inbox.conversation.priority_changed"
           *               ],
           *               "filter": {
           *                 "conversation.priority": "urgent"
           *               }
           *             },
           *             "nodes": [
           *               {
           *                 "id": "again",
           *                 "type": "retry",
           *                 "name": "Retry twice",
           *                 "config": {
           *                   "maxAttempts": 2,
           *                   "backoff": "exponential",
           *                   "baseDelaySeconds": 30
           *                 }
           *               },
           *               {
           *                 "id": "post",
           *                 "type": "http_request",
           *                 "name": "Tell the roastery",
           *                 "config": {
           *                   "method": "POST",
           *                   "url": "https://orders.northwind.example/urgent",
           *                   "body": {
           *                     "conversation": "{{trigger.conversation._id}}"
           *                   }
           *                 }
           *               },
           *               {
           *                 "id": "note",
           *                 "type": "add_note",
           *                 "config": {
           *                   "conversationId": "{{trigger.conversation._id}}",
           *                   "content": "The roastery has been told."
           *                 }
           *               }
           *             ],
           *             "edges": [
           *               {
           *                 "from": "again",
           *                 "to": "post",
           *                 "branch": "body"
           *               },
           *               {
           *                 "from": "again",
           *                 "to": "note",
           *                 "branch": "next"
           *               }
           *             ],
           *             "createdAt": "2026-03-02T09:00:00.000Z",
           *             "updatedAt": "2026-03-10T08:14:05.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              workflows: components['schemas']['Workflow'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workflowsCreateWorkflow: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string;
          description?: string;
          trigger:
            | {
                /** @enum {string} */
                type: 'event';
                eventTypes: string[];
                filter?: {
                  [key: string]: string | number | boolean | null;
                };
              }
            | {
                /** @enum {string} */
                type: 'manual';
              }
            | {
                /** @enum {string} */
                type: 'schedule';
                cron: string;
                timezone: string;
              };
          nodes: {
            id: string;
            /** @enum {string} */
            type:
              | 'http_request'
              | 'send_message'
              | 'add_note'
              | 'assign_conversation'
              | 'change_conversation_status'
              | 'add_tags'
              | 'create_task'
              | 'move_lead'
              | 'set_variable'
              | 'wait'
              | 'condition'
              | 'fail'
              | 'try_catch'
              | 'retry'
              | 'on_error';
            name?: string;
            /** @description The node’s settings, checked against its type’s fields when the workflow is saved (a wrong one answers 422 naming `nodes[i].config.<field>`). String values may hold `{{path}}` templates.
             *     - `http_request`: method, url, headers?, body?
             *     - `send_message`: conversationId, content
             *     - `add_note`: conversationId, content
             *     - `assign_conversation`: conversationId, assigneeId
             *     - `change_conversation_status`: conversationId, status, snoozedUntil?
             *     - `add_tags`: entityType, entityId, tagIds
             *     - `create_task`: title, description?, priority?, dueAt?, assigneeId?, leadId?, customerId?, conversationId?
             *     - `move_lead`: leadId, stageId, pipelineId?, lostReason?
             *     - `set_variable`: name, value
             *     - `wait`: seconds
             *     - `condition`: left, operator, right?
             *     - `fail`: message
             *     - `try_catch`: categorize?
             *     - `retry`: maxAttempts, backoff, baseDelaySeconds, categories?
             *     - `on_error`: action, targets?, assigneeId?
             *     For `retry`, `maxAttempts` (1–10) is the maximum number of retries after the first try, not of tries: `maxAttempts: 2` makes up to 3 tries. */
            config: {
              [key: string]: unknown;
            };
          }[];
          edges: {
            from: string;
            to: string;
            /** @enum {string} */
            branch: 'next' | 'true' | 'false' | 'try' | 'catch' | 'body';
          }[];
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              workflow: components['schemas']['Workflow'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workflowsGetNotificationSecret: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "notificationSecret": {
           *           "secret": "whsec_3q2+7w2Fb0z3kq1jVwYt0r8G5m1xH6cE"
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              notificationSecret: components['schemas']['WorkflowNotificationSecret'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workflowsListExecutions: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
        workflowId?: string;
        status?: 'queued' | 'running' | 'waiting' | 'completed' | 'completed_with_errors' | 'failed' | 'cancelled';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "executions": [
           *           {
           *             "_id": "66a2035f8e2d4a1b9c3f6e01",
           *             "workflowId": "66a0fe12a3b4c5d6e7f80930",
           *             "workflowVersion": 2,
           *             "status": "completed",
           *             "trigger": {
           *               "type": "event",
           *               "eventId": "66a2035e7d1c4f2a9b3e5d20"
           *             },
           *             "depth": 1,
           *             "startedAt": "2026-03-10T08:30:00.000Z",
           *             "endedAt": "2026-03-10T08:30:31.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              executions: components['schemas']['WorkflowExecution'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workflowsGetExecution: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "execution": {
           *           "_id": "66a2035f8e2d4a1b9c3f6e01",
           *           "workflowId": "66a0fe12a3b4c5d6e7f80930",
           *           "workflowVersion": 2,
           *           "status": "completed",
           *           "trigger": {
           *             "type": "event",
           *             "eventId": "66a2035e7d1c4f2a9b3e5d20"
           *           },
           *           "depth": 1,
           *           "startedAt": "2026-03-10T08:30:00.000Z",
           *           "endedAt": "2026-03-10T08:30:31.000Z",
           *           "steps": [
           *             {
           *               "nodeId": "post",
           *               "nodeType": "http_request",
           *               "attempt": 1,
           *               "status": "failed",
           *               "startedAt": "2026-03-10T08:30:00.000Z",
           *               "endedAt": "2026-03-10T08:30:00.400Z",
           *               "delayBeforeMs": 0,
           *               "error": {
           *                 "message": "HTTP 503 from orders.northwind.example",
           *                 "category": "other"
           *               },
           *               "handledBy": "again"
           *             },
           *             {
           *               "nodeId": "post",
           *               "nodeType": "http_request",
           *               "attempt": 2,
           *               "status": "succeeded",
           *               "startedAt": "2026-03-10T08:30:30.000Z",
           *               "endedAt": "2026-03-10T08:30:31.000Z",
           *               "delayBeforeMs": 30000,
           *               "output": {
           *                 "status": 202,
           *                 "body": {
           *                   "queued": true
           *                 }
           *               }
           *             }
           *           ]
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              execution: components['schemas']['WorkflowExecutionWithSteps'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workflowsCancelExecution: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              execution: components['schemas']['WorkflowExecution'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workflowsRetryExecution: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              execution: components['schemas']['WorkflowExecution'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workflowsGetWorkflow: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              workflow: components['schemas']['Workflow'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workflowsDeleteWorkflow: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {}
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: Record<string, never>;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workflowsUpdateWorkflow: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name?: string;
          description?: string | null;
          trigger?:
            | {
                /** @enum {string} */
                type: 'event';
                eventTypes: string[];
                filter?: {
                  [key: string]: string | number | boolean | null;
                };
              }
            | {
                /** @enum {string} */
                type: 'manual';
              }
            | {
                /** @enum {string} */
                type: 'schedule';
                cron: string;
                timezone: string;
              };
          nodes?: {
            id: string;
            /** @enum {string} */
            type:
              | 'http_request'
              | 'send_message'
              | 'add_note'
              | 'assign_conversation'
              | 'change_conversation_status'
              | 'add_tags'
              | 'create_task'
              | 'move_lead'
              | 'set_variable'
              | 'wait'
              | 'condition'
              | 'fail'
              | 'try_catch'
              | 'retry'
              | 'on_error';
            name?: string;
            /** @description The node’s settings, checked against its type’s fields when the workflow is saved (a wrong one answers 422 naming `nodes[i].config.<field>`). String values may hold `{{path}}` templates.
             *     - `http_request`: method, url, headers?, body?
             *     - `send_message`: conversationId, content
             *     - `add_note`: conversationId, content
             *     - `assign_conversation`: conversationId, assigneeId
             *     - `change_conversation_status`: conversationId, status, snoozedUntil?
             *     - `add_tags`: entityType, entityId, tagIds
             *     - `create_task`: title, description?, priority?, dueAt?, assigneeId?, leadId?, customerId?, conversationId?
             *     - `move_lead`: leadId, stageId, pipelineId?, lostReason?
             *     - `set_variable`: name, value
             *     - `wait`: seconds
             *     - `condition`: left, operator, right?
             *     - `fail`: message
             *     - `try_catch`: categorize?
             *     - `retry`: maxAttempts, backoff, baseDelaySeconds, categories?
             *     - `on_error`: action, targets?, assigneeId?
             *     For `retry`, `maxAttempts` (1–10) is the maximum number of retries after the first try, not of tries: `maxAttempts: 2` makes up to 3 tries. */
            config: {
              [key: string]: unknown;
            };
          }[];
          edges?: {
            from: string;
            to: string;
            /** @enum {string} */
            branch: 'next' | 'true' | 'false' | 'try' | 'catch' | 'body';
          }[];
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              workflow: components['schemas']['Workflow'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workflowsActivateWorkflow: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              workflow: components['schemas']['Workflow'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workflowsDeactivateWorkflow: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              workflow: components['schemas']['Workflow'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workflowsListVersions: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "versions": [
           *           {
           *             "_id": "66a0fe12a3b4c5d6e7f80930",
           *             "name": "Notify the roastery of urgent conversations",
           *             "description": "Posts urgent conversations to the roastery’s order system.",
           *             "active": true,
           *             "version": 2,
           *             "trigger": {
           *               "type": "event",
           *               "eventTypes": [
           *                 "inbox.conversation.priority_changed"
           *               ],
           *               "filter": {
           *                 "conversation.priority": "urgent"
           *               }
           *             },
           *             "nodes": [
           *               {
           *                 "id": "again",
           *                 "type": "retry",
           *                 "name": "Retry twice",
           *                 "config": {
           *                   "maxAttempts": 2,
           *                   "backoff": "exponential",
           *                   "baseDelaySeconds": 30
           *                 }
           *               },
           *               {
           *                 "id": "post",
           *                 "type": "http_request",
           *                 "name": "Tell the roastery",
           *                 "config": {
           *                   "method": "POST",
           *                   "url": "https://orders.northwind.example/urgent",
           *                   "body": {
           *                     "conversation": "{{trigger.conversation._id}}"
           *                   }
           *                 }
           *               },
           *               {
           *                 "id": "note",
           *                 "type": "add_note",
           *                 "config": {
           *                   "conversationId": "{{trigger.conversation._id}}",
           *                   "content": "The roastery has been told."
           *                 }
           *               }
           *             ],
           *             "edges": [
           *               {
           *                 "from": "again",
           *                 "to": "post",
           *                 "branch": "body"
           *               },
           *               {
           *                 "from": "again",
           *                 "to": "note",
           *                 "branch": "next"
           *               }
           *             ],
           *             "createdAt": "2026-03-02T09:00:00.000Z",
           *             "updatedAt": "2026-03-10T08:14:05.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              versions: components['schemas']['Workflow'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workflowsTriggerWorkflow: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "payload": {
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "priority": "urgent"
         *         }
         *       }
         *     } */
        'application/json': {
          payload?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              execution: components['schemas']['WorkflowExecution'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  aiListArticles: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "articles": [
           *           {
           *             "_id": "66a0fe12a3b4c5d6e7f80940",
           *             "title": "When will my order arrive?",
           *             "tags": [
           *               "shipping"
           *             ],
           *             "published": true,
           *             "locale": "en",
           *             "createdAt": "2026-03-02T09:00:00.000Z",
           *             "updatedAt": "2026-03-02T09:00:00.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              articles: components['schemas']['ArticleSummary'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  aiCreateArticle: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "title": "When will my order arrive?",
         *       "body": "Orders placed before 14:00 leave the roastery the same day and arrive in 1–2 working days in the Netherlands.",
         *       "tags": [
         *         "shipping"
         *       ],
         *       "published": true,
         *       "locale": "en"
         *     } */
        'application/json': {
          title: string;
          body: string;
          tags?: string[];
          published?: boolean;
          locale?: string;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              article: components['schemas']['Article'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  aiGetArticle: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              article: components['schemas']['Article'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  aiDeleteArticle: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "article": {
           *           "_id": "66a0fe12a3b4c5d6e7f80940",
           *           "title": "When will my order arrive?",
           *           "body": "Orders placed before 14:00 leave the roastery the same day and arrive in 1–2 working days in the Netherlands.",
           *           "tags": [
           *             "shipping"
           *           ],
           *           "published": true,
           *           "locale": "en",
           *           "createdAt": "2026-03-02T09:00:00.000Z",
           *           "updatedAt": "2026-03-02T09:00:00.000Z"
           *         },
           *         "deleted": true
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              article: components['schemas']['Article'];
              /** @enum {boolean} */
              deleted: true;
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  aiUpdateArticle: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "published": true
         *     } */
        'application/json': {
          title?: string;
          body?: string;
          tags?: string[];
          published?: boolean;
          locale?: string;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              article: components['schemas']['Article'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  aiSearch: {
    parameters: {
      query: {
        q: string;
        limit?: number;
        locale?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "passages": [
           *           {
           *             "articleId": "66a0fe12a3b4c5d6e7f80940",
           *             "title": "When will my order arrive?",
           *             "text": "Orders placed before 14:00 leave the roastery the same day.",
           *             "locale": "en",
           *             "score": 4.2,
           *             "confidence": 0.82
           *           }
           *         ]
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              passages: components['schemas']['Passage'][];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  aiSuggestReply: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "conversationId": "66a2035e7d1c4f2a9b3e5d10"
         *     } */
        'application/json': {
          conversationId: string;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "suggestion": {
           *           "question": "When will my order #4521 arrive?",
           *           "passages": [
           *             {
           *               "articleId": "66a0fe12a3b4c5d6e7f80940",
           *               "title": "When will my order arrive?",
           *               "text": "Orders placed before 14:00 leave the roastery the same day.",
           *               "locale": "en",
           *               "score": 4.2,
           *               "confidence": 0.82
           *             }
           *           ],
           *           "confidence": 0.82,
           *           "reply": "Orders placed before 14:00 leave the roastery the same day and arrive in 1–2 working days in the Netherlands.",
           *           "decision": {
           *             "action": "reply"
           *           },
           *           "messageIds": [
           *             "66a2035e7d1c4f2a9b3e5d11"
           *           ]
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              suggestion: components['schemas']['Suggestion'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  aiGetSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              settings: components['schemas']['AiSettings'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  aiUpdateSettings: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "autoReply": "suggest",
         *       "confidenceThreshold": 0.75
         *     } */
        'application/json': {
          enabled?: boolean;
          /** @enum {string} */
          autoReply?: 'off' | 'suggest' | 'auto';
          confidenceThreshold?: number;
          handoffKeywords?: string[];
          /** @enum {string} */
          tone?: 'neutral' | 'friendly' | 'formal';
          language?: string | null;
          /** @enum {string} */
          provider?: 'extractive';
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              settings: components['schemas']['AiSettings'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  analyticsOverview: {
    parameters: {
      query?: {
        from?: string;
        to?: string;
        interval?: 'day' | 'week';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "range": {
           *           "from": "2026-03-09",
           *           "to": "2026-03-15",
           *           "interval": "week",
           *           "timezone": "Europe/Amsterdam"
           *         },
           *         "overview": {
           *           "conversations": {
           *             "opened": 41,
           *             "closed": 37
           *           },
           *           "messages": {
           *             "incoming": 96,
           *             "outgoing": 88
           *           },
           *           "firstResponseSeconds": {
           *             "median": 420,
           *             "p90": 3600
           *           },
           *           "resolutionSeconds": {
           *             "median": 14400,
           *             "p90": 86400
           *           },
           *           "leads": {
           *             "created": 6,
           *             "won": 2,
           *             "lost": 1,
           *             "wonValue": {
           *               "EUR": 480000
           *             }
           *           },
           *           "webhooks": {
           *             "deliveries": 212,
           *             "succeeded": 209,
           *             "successRate": 0.986
           *           }
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              range: components['schemas']['ReportRange'];
              overview: components['schemas']['OverviewReport'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  analyticsConversations: {
    parameters: {
      query?: {
        from?: string;
        to?: string;
        interval?: 'day' | 'week';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "range": {
           *           "from": "2026-03-09",
           *           "to": "2026-03-15",
           *           "interval": "week",
           *           "timezone": "Europe/Amsterdam"
           *         },
           *         "conversations": {
           *           "opened": 41,
           *           "closed": 37,
           *           "incoming": 96,
           *           "outgoing": 88,
           *           "aiOutgoing": 12,
           *           "firstResponseSeconds": {
           *             "median": 420,
           *             "p90": 3600,
           *             "count": 38
           *           },
           *           "resolutionSeconds": {
           *             "median": 14400,
           *             "p90": 86400,
           *             "count": 37
           *           },
           *           "series": [
           *             {
           *               "start": "2026-03-09",
           *               "end": "2026-03-15",
           *               "opened": 41,
           *               "closed": 37,
           *               "incoming": 96,
           *               "outgoing": 88,
           *               "aiOutgoing": 12,
           *               "firstResponseSeconds": {
           *                 "median": 420,
           *                 "p90": 3600,
           *                 "count": 38
           *               },
           *               "resolutionSeconds": {
           *                 "median": 14400,
           *                 "p90": 86400,
           *                 "count": 37
           *               }
           *             }
           *           ]
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              range: components['schemas']['ReportRange'];
              conversations: components['schemas']['ConversationsReport'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  analyticsAgents: {
    parameters: {
      query?: {
        from?: string;
        to?: string;
        interval?: 'day' | 'week';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "range": {
           *           "from": "2026-03-09",
           *           "to": "2026-03-15",
           *           "interval": "week",
           *           "timezone": "Europe/Amsterdam"
           *         },
           *         "agents": [
           *           {
           *             "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
           *             "conversationsAssigned": 24,
           *             "conversationsClosed": 22,
           *             "messagesSent": 61,
           *             "firstResponseSeconds": {
           *               "median": 420,
           *               "p90": 3600,
           *               "count": 24
           *             },
           *             "resolutionSeconds": {
           *               "median": 12600,
           *               "p90": 72000,
           *               "count": 22
           *             }
           *           }
           *         ]
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              range: components['schemas']['ReportRange'];
              agents: components['schemas']['AgentReport'][];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  analyticsPipeline: {
    parameters: {
      query?: {
        from?: string;
        to?: string;
        interval?: 'day' | 'week';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "range": {
           *           "from": "2026-03-09",
           *           "to": "2026-03-15",
           *           "interval": "week",
           *           "timezone": "Europe/Amsterdam"
           *         },
           *         "pipeline": {
           *           "created": 6,
           *           "won": 2,
           *           "lost": 1,
           *           "wonValue": {
           *             "EUR": 480000
           *           },
           *           "winRate": 0.667,
           *           "series": [
           *             {
           *               "start": "2026-03-09",
           *               "end": "2026-03-15",
           *               "created": 6,
           *               "won": 2,
           *               "lost": 1,
           *               "wonValue": {
           *                 "EUR": 480000
           *               },
           *               "winRate": 0.667
           *             }
           *           ],
           *           "pipelines": [
           *             {
           *               "pipelineId": "66a0ff41c7b24e1d8a9f3c10",
           *               "name": "Wholesale",
           *               "stages": [
           *                 {
           *                   "stageId": "66a0ff41c7b24e1d8a9f3c11",
           *                   "name": "New enquiry",
           *                   "kind": "open",
           *                   "entered": 6,
           *                   "conversionToNext": 0.667
           *                 },
           *                 {
           *                   "stageId": "66a0ff41c7b24e1d8a9f3c12",
           *                   "name": "Proposal sent",
           *                   "kind": "open",
           *                   "entered": 4,
           *                   "conversionToNext": 0.5
           *                 },
           *                 {
           *                   "stageId": "66a0ff41c7b24e1d8a9f3c13",
           *                   "name": "Won",
           *                   "kind": "won",
           *                   "entered": 2,
           *                   "conversionToNext": null
           *                 },
           *                 {
           *                   "stageId": "66a0ff41c7b24e1d8a9f3c14",
           *                   "name": "Lost",
           *                   "kind": "lost",
           *                   "entered": 1,
           *                   "conversionToNext": null
           *                 }
           *               ]
           *             }
           *           ]
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              range: components['schemas']['ReportRange'];
              pipeline: components['schemas']['PipelineReport'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  analyticsWebhooks: {
    parameters: {
      query?: {
        from?: string;
        to?: string;
        interval?: 'day' | 'week';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "range": {
           *           "from": "2026-03-09",
           *           "to": "2026-03-15",
           *           "interval": "week",
           *           "timezone": "Europe/Amsterdam"
           *         },
           *         "webhooks": {
           *           "deliveries": 212,
           *           "succeeded": 209,
           *           "failed": 3,
           *           "successRate": 0.986,
           *           "attempts": 218,
           *           "latencyMs": {
           *             "median": 140,
           *             "p90": 480,
           *             "count": 218
           *           },
           *           "series": [
           *             {
           *               "start": "2026-03-09",
           *               "end": "2026-03-15",
           *               "deliveries": 212,
           *               "succeeded": 209,
           *               "failed": 3,
           *               "successRate": 0.986,
           *               "attempts": 218,
           *               "latencyMs": {
           *                 "median": 140,
           *                 "p90": 480,
           *                 "count": 218
           *               }
           *             }
           *           ]
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              range: components['schemas']['ReportRange'];
              webhooks: components['schemas']['WebhooksReport'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  channelsListChannels: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "channels": [
           *           {
           *             "_id": "66a0fe12a3b4c5d6e7f80911",
           *             "type": "email",
           *             "name": "Support inbox",
           *             "status": "connected",
           *             "config": {
           *               "from": "support@northwind.example",
           *               "host": "smtp.northwind.example",
           *               "port": 587,
           *               "secure": false,
           *               "username": "support@northwind.example"
           *             },
           *             "ratePerSecond": 20,
           *             "secretNames": [
           *               "smtpPassword"
           *             ],
           *             "lastError": null,
           *             "createdAt": "2026-03-02T09:00:00.000Z",
           *             "updatedAt": "2026-03-02T09:00:00.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              channels: components['schemas']['ChannelAccount'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  channelsCreateChannel: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "type": "email",
         *       "config": {
         *         "from": "support@northwind.example",
         *         "host": "smtp.northwind.example",
         *         "port": 587,
         *         "secure": false,
         *         "username": "support@northwind.example"
         *       },
         *       "name": "Support inbox",
         *       "ratePerSecond": 20
         *     } */
        'application/json':
          | {
              /** @enum {string} */
              type: 'api';
              config: {
                /** Format: uri */
                url: string;
              };
              name: string;
              /** @description Broadcast sends per second through the account; when not given at creation, by type: api 20, email 20, sandbox 500 */
              ratePerSecond?: number;
              secrets?: {
                signingSecret?: string;
                smtpPassword?: string;
              };
            }
          | {
              /** @enum {string} */
              type: 'email';
              config: {
                /** Format: email */
                from: string;
                host: string;
                port: number;
                /** @default false */
                secure?: boolean;
                username?: string;
              };
              name: string;
              /** @description Broadcast sends per second through the account; when not given at creation, by type: api 20, email 20, sandbox 500 */
              ratePerSecond?: number;
              secrets?: {
                signingSecret?: string;
                smtpPassword?: string;
              };
            }
          | {
              /** @enum {string} */
              type: 'sandbox';
              /** @default {
               *       "deliver": true,
               *       "read": false,
               *       "failWith": null
               *     } */
              config?: {
                /** @default true */
                deliver?: boolean;
                /** @default false */
                read?: boolean;
                /** @default null */
                failWith?: string | null;
              };
              name: string;
              /** @description Broadcast sends per second through the account; when not given at creation, by type: api 20, email 20, sandbox 500 */
              ratePerSecond?: number;
              secrets?: {
                signingSecret?: string;
                smtpPassword?: string;
              };
            };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "channel": {
           *           "_id": "66a0fe12a3b4c5d6e7f80911",
           *           "type": "email",
           *           "name": "Support inbox",
           *           "status": "connected",
           *           "config": {
           *             "from": "support@northwind.example",
           *             "host": "smtp.northwind.example",
           *             "port": 587,
           *             "secure": false,
           *             "username": "support@northwind.example"
           *           },
           *           "ratePerSecond": 20,
           *           "secretNames": [
           *             "smtpPassword"
           *           ],
           *           "lastError": null,
           *           "createdAt": "2026-03-02T09:00:00.000Z",
           *           "updatedAt": "2026-03-02T09:00:00.000Z",
           *           "signingSecret": "whsec_c2VjcmV0LWZvci1ub3J0aHdpbmQtc3VwcG9ydA=="
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              channel: components['schemas']['ChannelAccountWithSecret'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  channelsGetChannel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              channel: components['schemas']['ChannelAccount'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  channelsDeleteChannel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "channel": {
           *           "_id": "66a0fe12a3b4c5d6e7f80911",
           *           "deleted": true
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              channel: components['schemas']['Deleted'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  channelsUpdateChannel: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "ratePerSecond": 20
         *     } */
        'application/json': {
          name?: string;
          /** @description Broadcast sends per second through the account; when not given at creation, by type: api 20, email 20, sandbox 500 */
          ratePerSecond?: number;
          config?: {
            [key: string]: unknown;
          };
          secrets?: {
            signingSecret?: string;
            smtpPassword?: string;
          };
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              channel: components['schemas']['ChannelAccount'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  channelsConnectChannel: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              channel: components['schemas']['ChannelAccount'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  channelsDisconnectChannel: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              channel: components['schemas']['ChannelAccount'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  channelsGetChannelStatus: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "status": {
           *           "channelId": "66a0fe12a3b4c5d6e7f80911",
           *           "type": "email",
           *           "status": "connected",
           *           "canSend": true,
           *           "lastError": null,
           *           "updatedAt": "2026-03-02T09:00:00.000Z"
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              status: components['schemas']['ChannelAccountStatus'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  channelsReceiveInbound: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "type": "message",
         *       "customer": {
         *         "identifier": "maya.chen@bluebird.example",
         *         "name": "Maya Chen"
         *       },
         *       "externalId": "msg-20260310-0814",
         *       "content": "Hello, my order #4521 was due on Friday and has still not arrived. Can you check where it is?"
         *     } */
        'application/json':
          | {
              /** @enum {string} */
              type: 'message';
              customer: {
                identifier: string;
                name?: string;
                /** Format: email */
                email?: string;
                phone?: string;
              };
              externalId?: string;
              conversationId?: string;
              content?: string;
              attachments?: {
                /** Format: uri */
                url: string;
                name: string;
                size: number;
                contentType: string;
              }[];
            }
          | {
              /** @enum {string} */
              type: 'status';
              id: string;
              /** @enum {string} */
              status: 'delivered' | 'read' | 'failed';
              reason?: string;
            }
          | {
              /** @enum {string} */
              type: 'email';
              mime: string;
            };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "inbound": {
           *           "type": "message",
           *           "message": {
           *             "_id": "66a2035e7d1c4f2a9b3e5d11",
           *             "conversationId": "66a2035e7d1c4f2a9b3e5d10",
           *             "type": "incoming",
           *             "private": false,
           *             "content": "Hello, my order #4521 was due on Friday and has still not arrived. Can you check where it is?",
           *             "attachments": [],
           *             "deliveryStatus": "received",
           *             "failureReason": null,
           *             "author": {
           *               "type": "customer",
           *               "id": "66a1f1d09c3a4b5e6f708192"
           *             },
           *             "externalId": "<CAF8kq2x7@mail.bluebird.example>",
           *             "createdAt": "2026-03-10T08:14:05.000Z"
           *           },
           *           "conversation": {
           *             "_id": "66a2035e7d1c4f2a9b3e5d10",
           *             "number": 1042,
           *             "customerId": "66a1f1d09c3a4b5e6f708192",
           *             "channel": "email",
           *             "channelId": "66a0fe12a3b4c5d6e7f80911",
           *             "status": "open",
           *             "snoozedUntil": null,
           *             "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
           *             "priority": "high",
           *             "subject": "Order #4521 has not arrived",
           *             "lastMessageAt": "2026-03-10T08:21:40.000Z",
           *             "unreadCount": 0,
           *             "messageCount": 2,
           *             "tagIds": [
           *               "66a0ff41c7b24e1d8a9f3c01"
           *             ],
           *             "createdAt": "2026-03-10T08:14:05.000Z",
           *             "updatedAt": "2026-03-10T08:21:40.000Z"
           *           },
           *           "duplicate": false
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              inbound: components['schemas']['ChannelInbound'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['UnauthorizedAfterToken'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  broadcastsListBroadcasts: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "broadcasts": [
           *           {
           *             "_id": "66a0fe12a3b4c5d6e7f80950",
           *             "name": "Spring single-origin launch",
           *             "channelId": "66a0fe12a3b4c5d6e7f80911",
           *             "audience": {
           *               "tagIds": [
           *                 "66a0ff41c7b24e1d8a9f3c01"
           *               ]
           *             },
           *             "content": "Our Ethiopian Guji is back: order before Friday for first-roast delivery.",
           *             "subject": "New: Ethiopia Guji",
           *             "status": "sent",
           *             "scheduledAt": "2026-03-09T08:00:00.000Z",
           *             "startedAt": "2026-03-09T08:00:02.000Z",
           *             "completedAt": "2026-03-09T08:01:10.000Z",
           *             "failureReason": null,
           *             "stats": {
           *               "recipients": 120,
           *               "sent": 118,
           *               "delivered": 115,
           *               "read": 64,
           *               "failed": 2,
           *               "skipped": 0,
           *               "cancelled": 0
           *             },
           *             "createdAt": "2026-03-02T09:00:00.000Z",
           *             "updatedAt": "2026-03-09T08:01:10.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              broadcasts: components['schemas']['Broadcast'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  broadcastsCreateBroadcast: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "name": "Spring single-origin launch",
         *       "channelId": "66a0fe12a3b4c5d6e7f80911",
         *       "audience": {
         *         "tagIds": [
         *           "66a0ff41c7b24e1d8a9f3c01"
         *         ]
         *       },
         *       "content": "Our Ethiopian Guji is back: order before Friday for first-roast delivery.",
         *       "subject": "New: Ethiopia Guji"
         *     } */
        'application/json': {
          name: string;
          channelId: string;
          audience: {
            tagIds?: string[];
            customerIds?: string[];
          };
          content: string;
          subject?: string | null;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              broadcast: components['schemas']['Broadcast'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  broadcastsGetBroadcast: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              broadcast: components['schemas']['Broadcast'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  broadcastsDeleteBroadcast: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "broadcast": {
           *           "_id": "66a0fe12a3b4c5d6e7f80950",
           *           "deleted": true
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              broadcast: components['schemas']['Deleted'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  broadcastsUpdateBroadcast: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "subject": "New: Ethiopia Guji"
         *     } */
        'application/json': {
          name?: string;
          channelId?: string;
          audience?: {
            tagIds?: string[];
            customerIds?: string[];
          };
          content?: string;
          subject?: string | null;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              broadcast: components['schemas']['Broadcast'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  broadcastsScheduleBroadcast: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "at": "2026-03-12T15:00:00.000Z"
         *     } */
        'application/json': {
          /** Format: date-time */
          at: string;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              broadcast: components['schemas']['Broadcast'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  broadcastsSendBroadcast: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              broadcast: components['schemas']['Broadcast'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  broadcastsCancelBroadcast: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              broadcast: components['schemas']['Broadcast'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  broadcastsListRecipients: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "recipients": [
           *           {
           *             "broadcastId": "66a0fe12a3b4c5d6e7f80950",
           *             "customerId": "66a1f1d09c3a4b5e6f708192",
           *             "status": "delivered",
           *             "reason": null,
           *             "sentAt": "2026-03-09T08:00:05.000Z",
           *             "updatedAt": "2026-03-09T08:00:09.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              recipients: components['schemas']['BroadcastRecipient'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workspaceGetWorkspace: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              workspace: components['schemas']['Workspace'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workspaceUpdateWorkspace: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "name": "Northwind Coffee",
         *       "timezone": "Europe/Amsterdam",
         *       "locale": "en-GB",
         *       "businessHours": {
         *         "monday": [
         *           {
         *             "start": "09:00",
         *             "end": "17:30"
         *           }
         *         ],
         *         "tuesday": [
         *           {
         *             "start": "09:00",
         *             "end": "17:30"
         *           }
         *         ],
         *         "wednesday": [
         *           {
         *             "start": "09:00",
         *             "end": "17:30"
         *           }
         *         ],
         *         "thursday": [
         *           {
         *             "start": "09:00",
         *             "end": "17:30"
         *           }
         *         ],
         *         "friday": [
         *           {
         *             "start": "09:00",
         *             "end": "16:00"
         *           }
         *         ],
         *         "saturday": [],
         *         "sunday": []
         *       }
         *     } */
        'application/json': {
          name?: string;
          timezone?: string;
          locale?: string;
          businessHours?: {
            monday?: {
              start: string;
              end: string;
            }[];
            tuesday?: {
              start: string;
              end: string;
            }[];
            wednesday?: {
              start: string;
              end: string;
            }[];
            thursday?: {
              start: string;
              end: string;
            }[];
            friday?: {
              start: string;
              end: string;
            }[];
            saturday?: {
              start: string;
              end: string;
            }[];
            sunday?: {
              start: string;
              end: string;
            }[];
          };
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              workspace: components['schemas']['Workspace'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workspaceListMembers: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
        status?: 'invited' | 'active' | 'removed';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "members": [
           *           {
           *             "_id": "66a1f0c2b9e84d7a3c5e1f22",
           *             "email": "sam.rivera@northwind.example",
           *             "name": "Sam Rivera",
           *             "role": "agent",
           *             "status": "active",
           *             "invitedAt": "2026-03-02T09:00:00.000Z",
           *             "joinedAt": "2026-03-02T09:12:30.000Z",
           *             "removedAt": null,
           *             "createdAt": "2026-03-02T09:00:00.000Z",
           *             "updatedAt": "2026-03-02T09:12:30.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              members: components['schemas']['Member'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workspaceInviteMember: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "email": "sam.rivera@northwind.example",
         *       "name": "Sam Rivera",
         *       "role": "agent"
         *     } */
        'application/json': {
          /** Format: email */
          email: string;
          name?: string;
          /**
           * @default agent
           * @enum {string}
           */
          role?: 'owner' | 'admin' | 'manager' | 'agent';
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              member: components['schemas']['Member'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workspaceGetMember: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              member: components['schemas']['Member'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workspaceRemoveMember: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              member: components['schemas']['Member'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workspaceUpdateMember: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "role": "agent"
         *     } */
        'application/json': {
          /** @enum {string} */
          role: 'owner' | 'admin' | 'manager' | 'agent';
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              member: components['schemas']['Member'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  workspaceAcceptMember: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              member: components['schemas']['Member'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  schedulingListBookings: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        cursor?: string;
        assigneeId?: string;
        customerId?: string;
        status?: 'pending' | 'confirmed' | 'cancelled' | 'completed' | 'no_show';
        from?: string;
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "bookings": [
           *           {
           *             "_id": "66a2101b3e4f5a6b7c8d9e10",
           *             "title": "Tasting session with Bluebird Café",
           *             "customerId": "66a1f1d09c3a4b5e6f708192",
           *             "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
           *             "startAt": "2026-03-13T10:00:00.000Z",
           *             "endAt": "2026-03-13T10:30:00.000Z",
           *             "timezone": "Europe/Amsterdam",
           *             "location": "Northwind roastery, Utrecht",
           *             "notes": "Bring the Guji and the house espresso.",
           *             "status": "confirmed",
           *             "cancellationReason": null,
           *             "createdAt": "2026-03-10T08:21:40.000Z",
           *             "updatedAt": "2026-03-10T08:21:40.000Z"
           *           }
           *         ],
           *         "pagination": {
           *           "total": 1,
           *           "page": 1,
           *           "limit": 20,
           *           "pages": 1,
           *           "hasMore": false,
           *           "nextCursor": null
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              bookings: components['schemas']['Booking'][];
              pagination: components['schemas']['Pagination'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  schedulingCreateBooking: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "title": "Tasting session with Bluebird Café",
         *       "customerId": "66a1f1d09c3a4b5e6f708192",
         *       "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *       "startAt": "2026-03-13T10:00:00.000Z",
         *       "endAt": "2026-03-13T10:30:00.000Z",
         *       "timezone": "Europe/Amsterdam",
         *       "location": "Northwind roastery, Utrecht",
         *       "notes": "Bring the Guji and the house espresso."
         *     } */
        'application/json': {
          title: string;
          customerId: string;
          assigneeId: string;
          /** Format: date-time */
          startAt: string;
          /** Format: date-time */
          endAt: string;
          timezone?: string;
          location?: string | null;
          notes?: string | null;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              booking: components['schemas']['Booking'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  schedulingGetBooking: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              booking: components['schemas']['Booking'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  schedulingGetBookingIcs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the file itself (text/calendar) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Content-Disposition': components['headers']['Content-Disposition.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example BEGIN:VCALENDAR
           *     VERSION:2.0
           *     PRODID:-//Parley//Parley//EN
           *     METHOD:PUBLISH
           *     NAME:Northwind Coffee
           *     X-WR-CALNAME:Northwind Coffee
           *     BEGIN:VEVENT
           *     UID:66a2101b3e4f5a6b7c8d9e10@parley
           *     SEQUENCE:0
           *     DTSTAMP:20260310T082140Z
           *     DTSTART:20260313T100000Z
           *     DTEND:20260313T103000Z
           *     SUMMARY:Tasting session with Bluebird Café
           *     LOCATION:Northwind roastery\, Utrecht
           *     DESCRIPTION:Bring the Guji and the house espresso.
           *     STATUS:CONFIRMED
           *     CREATED:20260310T082140Z
           *     LAST-MODIFIED:20260310T082140Z
           *     END:VEVENT
           *     END:VCALENDAR */
          'text/calendar': string;
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  schedulingRescheduleBooking: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "startAt": "2026-03-13T10:00:00.000Z",
         *       "endAt": "2026-03-13T10:30:00.000Z",
         *       "assigneeId": "66a1f0c2b9e84d7a3c5e1f22"
         *     } */
        'application/json': {
          /** Format: date-time */
          startAt: string;
          /** Format: date-time */
          endAt: string;
          assigneeId?: string;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              booking: components['schemas']['Booking'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  schedulingConfirmBooking: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              booking: components['schemas']['Booking'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  schedulingCancelBooking: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "reason": "Café closed for renovation that week"
         *     } */
        'application/json': {
          reason?: string;
        };
      };
    };
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "booking": {
           *           "_id": "66a2101b3e4f5a6b7c8d9e10",
           *           "title": "Tasting session with Bluebird Café",
           *           "customerId": "66a1f1d09c3a4b5e6f708192",
           *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
           *           "startAt": "2026-03-13T10:00:00.000Z",
           *           "endAt": "2026-03-13T10:30:00.000Z",
           *           "timezone": "Europe/Amsterdam",
           *           "location": "Northwind roastery, Utrecht",
           *           "notes": "Bring the Guji and the house espresso.",
           *           "status": "cancelled",
           *           "cancellationReason": "Café closed for renovation that week",
           *           "createdAt": "2026-03-10T08:21:40.000Z",
           *           "updatedAt": "2026-03-11T16:40:00.000Z"
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              booking: components['schemas']['Booking'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  schedulingCompleteBooking: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              booking: components['schemas']['Booking'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  schedulingNoShowBooking: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response is kept and replayed */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              booking: components['schemas']['Booking'];
            };
          };
        };
      };
      400: components['responses']['BadRequestKeyed'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      404: components['responses']['NotFoundKeyed'];
      409: components['responses']['ConflictKeyed'];
      413: components['responses']['PayloadTooLargeKeyed'];
      422: components['responses']['ValidationErrorKeyed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  schedulingGetAvailability: {
    parameters: {
      query: {
        assigneeId: string;
        from: string;
        to: string;
        durationMinutes?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success: the contract wrapper `{success: true, data}` */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id.required'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit.required'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining.required'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset.required'];
          [name: string]: unknown;
        };
        content: {
          /** @example {
           *       "success": true,
           *       "data": {
           *         "availability": {
           *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
           *           "timezone": "Europe/Amsterdam",
           *           "durationMinutes": 30,
           *           "from": "2026-03-13T08:00:00.000Z",
           *           "to": "2026-03-13T16:30:00.000Z",
           *           "slots": [
           *             {
           *               "startAt": "2026-03-13T08:00:00.000Z",
           *               "endAt": "2026-03-13T08:30:00.000Z"
           *             },
           *             {
           *               "startAt": "2026-03-13T10:30:00.000Z",
           *               "endAt": "2026-03-13T11:00:00.000Z"
           *             }
           *           ]
           *         }
           *       }
           *     } */
          'application/json': {
            /** @enum {boolean} */
            success: true;
            data: {
              availability: components['schemas']['Availability'];
            };
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['ForbiddenOrWorkspaceAccessDenied'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  event_inbox_conversation_created: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.conversation.created",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.conversation.created';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            conversation: components['schemas']['Conversation'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_conversation_updated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.conversation.updated",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T09:05:00.000Z"
         *         }
         *       },
         *       "changes": {
         *         "subject": [
         *           "Late order",
         *           "Order #4521 has not arrived"
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.conversation.updated';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            conversation: components['schemas']['Conversation'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_conversation_assigned: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.conversation.assigned",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.conversation.assigned';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            conversation: components['schemas']['Conversation'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_conversation_unassigned: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.conversation.unassigned",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": null,
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T09:05:00.000Z"
         *         }
         *       },
         *       "changes": {
         *         "assigneeId": [
         *           "66a1f0c2b9e84d7a3c5e1f22",
         *           null
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.conversation.unassigned';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            conversation: components['schemas']['Conversation'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_conversation_status_changed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.conversation.status_changed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "pending",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T09:05:00.000Z"
         *         }
         *       },
         *       "changes": {
         *         "status": [
         *           "open",
         *           "pending"
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.conversation.status_changed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            conversation: components['schemas']['Conversation'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_conversation_snoozed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.conversation.snoozed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "snoozed",
         *           "snoozedUntil": "2026-03-12T15:00:00.000Z",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T09:05:00.000Z"
         *         }
         *       },
         *       "changes": {
         *         "status": [
         *           "open",
         *           "snoozed"
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.conversation.snoozed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            conversation: components['schemas']['Conversation'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_conversation_closed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.conversation.closed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "closed",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T09:05:00.000Z"
         *         }
         *       },
         *       "changes": {
         *         "status": [
         *           "open",
         *           "closed"
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.conversation.closed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            conversation: components['schemas']['Conversation'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_conversation_reopened: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.conversation.reopened",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.conversation.reopened';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            conversation: components['schemas']['Conversation'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_conversation_priority_changed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.conversation.priority_changed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "urgent",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T09:05:00.000Z"
         *         }
         *       },
         *       "changes": {
         *         "priority": [
         *           "high",
         *           "urgent"
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.conversation.priority_changed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            conversation: components['schemas']['Conversation'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_conversation_deleted: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.conversation.deleted",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.conversation.deleted';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            conversation: components['schemas']['Conversation'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_conversation_tagged: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.conversation.tagged",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         },
         *         "tags": [
         *           {
         *             "_id": "66a0ff41c7b24e1d8a9f3c01",
         *             "name": "Wholesale",
         *             "color": "#2e7d32",
         *             "description": "Cafés and shops that buy beans in bulk",
         *             "createdAt": "2026-03-02T09:00:00.000Z",
         *             "updatedAt": "2026-03-02T09:00:00.000Z"
         *           }
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.conversation.tagged';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            conversation: components['schemas']['Conversation'];
            tags: components['schemas']['Tag'][];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_conversation_untagged: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.conversation.untagged",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         },
         *         "tags": [
         *           {
         *             "_id": "66a0ff41c7b24e1d8a9f3c01",
         *             "name": "Wholesale",
         *             "color": "#2e7d32",
         *             "description": "Cafés and shops that buy beans in bulk",
         *             "createdAt": "2026-03-02T09:00:00.000Z",
         *             "updatedAt": "2026-03-02T09:00:00.000Z"
         *           }
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.conversation.untagged';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            conversation: components['schemas']['Conversation'];
            tags: components['schemas']['Tag'][];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_message_received: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.message.received",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "message": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d11",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "type": "incoming",
         *           "private": false,
         *           "content": "Hello, my order #4521 was due on Friday and has still not arrived. Can you check where it is?",
         *           "attachments": [],
         *           "deliveryStatus": "received",
         *           "failureReason": null,
         *           "author": {
         *             "type": "customer",
         *             "id": "66a1f1d09c3a4b5e6f708192"
         *           },
         *           "externalId": "<CAF8kq2x7@mail.bluebird.example>",
         *           "createdAt": "2026-03-10T08:14:05.000Z"
         *         },
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.message.received';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            message: components['schemas']['Message'];
            conversation: components['schemas']['Conversation'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_message_sent: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.message.sent",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "message": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d12",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "type": "outgoing",
         *           "private": false,
         *           "content": "Hi Maya, your order left our roastery this morning; tracking code NL-88213. Sorry for the wait!",
         *           "attachments": [],
         *           "deliveryStatus": "delivered",
         *           "failureReason": null,
         *           "author": {
         *             "type": "token",
         *             "id": "66a1f0c2b9e84d7a3c5e1f23"
         *           },
         *           "externalId": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z"
         *         },
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.message.sent';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            message: components['schemas']['Message'];
            conversation: components['schemas']['Conversation'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_message_updated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.message.updated",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "message": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d12",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "type": "outgoing",
         *           "private": false,
         *           "content": "Hi Maya, your order left our roastery this morning; tracking code NL-88213. Sorry for the wait!",
         *           "attachments": [],
         *           "deliveryStatus": "delivered",
         *           "failureReason": null,
         *           "author": {
         *             "type": "token",
         *             "id": "66a1f0c2b9e84d7a3c5e1f23"
         *           },
         *           "externalId": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z"
         *         },
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.message.updated';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            message: components['schemas']['Message'];
            conversation: components['schemas']['Conversation'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_inbox_note_created: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "inbox.note.created",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "note": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d12",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "type": "outgoing",
         *           "private": false,
         *           "content": "Hi Maya, your order left our roastery this morning; tracking code NL-88213. Sorry for the wait!",
         *           "attachments": [],
         *           "deliveryStatus": "delivered",
         *           "failureReason": null,
         *           "author": {
         *             "type": "token",
         *             "id": "66a1f0c2b9e84d7a3c5e1f23"
         *           },
         *           "externalId": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z"
         *         },
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'inbox.note.created';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            note: components['schemas']['Message'];
            conversation: components['schemas']['Conversation'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_customer_contact_created: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "customer.contact.created",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "contact": {
         *           "_id": "66a1f1d09c3a4b5e6f708192",
         *           "name": "Maya Chen",
         *           "email": "maya.chen@bluebird.example",
         *           "phone": "+31612345678",
         *           "externalId": "shop-cust-10482",
         *           "attributes": {
         *             "plan": "wholesale",
         *             "city": "Utrecht",
         *             "ordersPlaced": 14
         *           },
         *           "identities": [
         *             {
         *               "channel": "email",
         *               "identifier": "maya.chen@bluebird.example"
         *             }
         *           ],
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "blocked": false,
         *           "lastActivityAt": "2026-03-10T08:14:05.000Z",
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T08:14:05.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'customer.contact.created';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            contact: components['schemas']['Customer'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_customer_contact_updated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "customer.contact.updated",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "contact": {
         *           "_id": "66a1f1d09c3a4b5e6f708192",
         *           "name": "Maya Chen",
         *           "email": "maya.chen@bluebird.example",
         *           "phone": "+31612345678",
         *           "externalId": "shop-cust-10482",
         *           "attributes": {
         *             "plan": "wholesale",
         *             "city": "Utrecht",
         *             "ordersPlaced": 14
         *           },
         *           "identities": [
         *             {
         *               "channel": "email",
         *               "identifier": "maya.chen@bluebird.example"
         *             }
         *           ],
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "blocked": false,
         *           "lastActivityAt": "2026-03-10T08:14:05.000Z",
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T08:14:05.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'customer.contact.updated';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            contact: components['schemas']['Customer'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_customer_contact_deleted: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "customer.contact.deleted",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "contact": {
         *           "_id": "66a1f1d09c3a4b5e6f708192",
         *           "name": "Maya Chen",
         *           "email": "maya.chen@bluebird.example",
         *           "phone": "+31612345678",
         *           "externalId": "shop-cust-10482",
         *           "attributes": {
         *             "plan": "wholesale",
         *             "city": "Utrecht",
         *             "ordersPlaced": 14
         *           },
         *           "identities": [
         *             {
         *               "channel": "email",
         *               "identifier": "maya.chen@bluebird.example"
         *             }
         *           ],
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "blocked": false,
         *           "lastActivityAt": "2026-03-10T08:14:05.000Z",
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T08:14:05.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'customer.contact.deleted';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            contact: components['schemas']['Customer'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_customer_contact_blocked: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "customer.contact.blocked",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "contact": {
         *           "_id": "66a1f1d09c3a4b5e6f708192",
         *           "name": "Maya Chen",
         *           "email": "maya.chen@bluebird.example",
         *           "phone": "+31612345678",
         *           "externalId": "shop-cust-10482",
         *           "attributes": {
         *             "plan": "wholesale",
         *             "city": "Utrecht",
         *             "ordersPlaced": 14
         *           },
         *           "identities": [
         *             {
         *               "channel": "email",
         *               "identifier": "maya.chen@bluebird.example"
         *             }
         *           ],
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "blocked": true,
         *           "lastActivityAt": "2026-03-10T08:14:05.000Z",
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T08:14:05.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'customer.contact.blocked';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            contact: components['schemas']['Customer'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_customer_contact_unblocked: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "customer.contact.unblocked",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "contact": {
         *           "_id": "66a1f1d09c3a4b5e6f708192",
         *           "name": "Maya Chen",
         *           "email": "maya.chen@bluebird.example",
         *           "phone": "+31612345678",
         *           "externalId": "shop-cust-10482",
         *           "attributes": {
         *             "plan": "wholesale",
         *             "city": "Utrecht",
         *             "ordersPlaced": 14
         *           },
         *           "identities": [
         *             {
         *               "channel": "email",
         *               "identifier": "maya.chen@bluebird.example"
         *             }
         *           ],
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "blocked": false,
         *           "lastActivityAt": "2026-03-10T08:14:05.000Z",
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T08:14:05.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'customer.contact.unblocked';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            contact: components['schemas']['Customer'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_customer_contact_merged: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "customer.contact.merged",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "contact": {
         *           "_id": "66a1f1d09c3a4b5e6f708192",
         *           "name": "Maya Chen",
         *           "email": "maya.chen@bluebird.example",
         *           "phone": "+31612345678",
         *           "externalId": "shop-cust-10482",
         *           "attributes": {
         *             "plan": "wholesale",
         *             "city": "Utrecht",
         *             "ordersPlaced": 14
         *           },
         *           "identities": [
         *             {
         *               "channel": "email",
         *               "identifier": "maya.chen@bluebird.example"
         *             }
         *           ],
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "blocked": false,
         *           "lastActivityAt": "2026-03-10T08:14:05.000Z",
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T08:14:05.000Z"
         *         },
         *         "mergedContact": {
         *           "_id": "66a1f1d09c3a4b5e6f708192",
         *           "name": "Maya Chen",
         *           "email": "maya.chen@bluebird.example",
         *           "phone": "+31612345678",
         *           "externalId": "shop-cust-10482",
         *           "attributes": {
         *             "plan": "wholesale",
         *             "city": "Utrecht",
         *             "ordersPlaced": 14
         *           },
         *           "identities": [
         *             {
         *               "channel": "email",
         *               "identifier": "maya.chen@bluebird.example"
         *             }
         *           ],
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "blocked": false,
         *           "lastActivityAt": "2026-03-10T08:14:05.000Z",
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T08:14:05.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'customer.contact.merged';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            contact: components['schemas']['Customer'];
            mergedContact: components['schemas']['Customer'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_customer_contact_tagged: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "customer.contact.tagged",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "contact": {
         *           "_id": "66a1f1d09c3a4b5e6f708192",
         *           "name": "Maya Chen",
         *           "email": "maya.chen@bluebird.example",
         *           "phone": "+31612345678",
         *           "externalId": "shop-cust-10482",
         *           "attributes": {
         *             "plan": "wholesale",
         *             "city": "Utrecht",
         *             "ordersPlaced": 14
         *           },
         *           "identities": [
         *             {
         *               "channel": "email",
         *               "identifier": "maya.chen@bluebird.example"
         *             }
         *           ],
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "blocked": false,
         *           "lastActivityAt": "2026-03-10T08:14:05.000Z",
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T08:14:05.000Z"
         *         },
         *         "tags": [
         *           {
         *             "_id": "66a0ff41c7b24e1d8a9f3c01",
         *             "name": "Wholesale",
         *             "color": "#2e7d32",
         *             "description": "Cafés and shops that buy beans in bulk",
         *             "createdAt": "2026-03-02T09:00:00.000Z",
         *             "updatedAt": "2026-03-02T09:00:00.000Z"
         *           }
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'customer.contact.tagged';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            contact: components['schemas']['Customer'];
            tags: components['schemas']['Tag'][];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_customer_contact_untagged: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "customer.contact.untagged",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "contact": {
         *           "_id": "66a1f1d09c3a4b5e6f708192",
         *           "name": "Maya Chen",
         *           "email": "maya.chen@bluebird.example",
         *           "phone": "+31612345678",
         *           "externalId": "shop-cust-10482",
         *           "attributes": {
         *             "plan": "wholesale",
         *             "city": "Utrecht",
         *             "ordersPlaced": 14
         *           },
         *           "identities": [
         *             {
         *               "channel": "email",
         *               "identifier": "maya.chen@bluebird.example"
         *             }
         *           ],
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "blocked": false,
         *           "lastActivityAt": "2026-03-10T08:14:05.000Z",
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T08:14:05.000Z"
         *         },
         *         "tags": [
         *           {
         *             "_id": "66a0ff41c7b24e1d8a9f3c01",
         *             "name": "Wholesale",
         *             "color": "#2e7d32",
         *             "description": "Cafés and shops that buy beans in bulk",
         *             "createdAt": "2026-03-02T09:00:00.000Z",
         *             "updatedAt": "2026-03-02T09:00:00.000Z"
         *           }
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'customer.contact.untagged';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            contact: components['schemas']['Customer'];
            tags: components['schemas']['Tag'][];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_auth_workspace_updated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "auth.workspace.updated",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "workspace": {
         *           "_id": "66a1f0c2b9e84d7a3c5e1f20",
         *           "name": "Northwind Coffee",
         *           "timezone": "Europe/Amsterdam",
         *           "locale": "en-GB",
         *           "businessHours": {
         *             "monday": [
         *               {
         *                 "start": "09:00",
         *                 "end": "17:30"
         *               }
         *             ],
         *             "tuesday": [
         *               {
         *                 "start": "09:00",
         *                 "end": "17:30"
         *               }
         *             ],
         *             "wednesday": [
         *               {
         *                 "start": "09:00",
         *                 "end": "17:30"
         *               }
         *             ],
         *             "thursday": [
         *               {
         *                 "start": "09:00",
         *                 "end": "17:30"
         *               }
         *             ],
         *             "friday": [
         *               {
         *                 "start": "09:00",
         *                 "end": "16:00"
         *               }
         *             ],
         *             "saturday": [],
         *             "sunday": []
         *           },
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:00:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'auth.workspace.updated';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            workspace: components['schemas']['Workspace'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_auth_token_created: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "auth.token.created",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "token": {
         *           "_id": "66a1f0c2b9e84d7a3c5e1f23",
         *           "name": "Helpdesk integration",
         *           "prefix": "sk_live_4eC39HqL",
         *           "environment": "live",
         *           "scopes": [
         *             "inbox:read",
         *             "inbox:write",
         *             "contacts:read"
         *           ],
         *           "workspaceIds": [
         *             "66a1f0c2b9e84d7a3c5e1f20"
         *           ],
         *           "createdAt": "2026-03-02T09:00:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'auth.token.created';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            token: components['schemas']['Token'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_auth_token_revoked: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "auth.token.revoked",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "token": {
         *           "_id": "66a1f0c2b9e84d7a3c5e1f23",
         *           "name": "Helpdesk integration",
         *           "prefix": "sk_live_4eC39HqL",
         *           "environment": "live",
         *           "scopes": [
         *             "inbox:read",
         *             "inbox:write",
         *             "contacts:read"
         *           ],
         *           "workspaceIds": [
         *             "66a1f0c2b9e84d7a3c5e1f20"
         *           ],
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "revokedAt": "2026-03-10T09:05:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'auth.token.revoked';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            token: components['schemas']['Token'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_auth_member_invited: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "auth.member.invited",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "member": {
         *           "_id": "66a1f0c2b9e84d7a3c5e1f22",
         *           "email": "sam.rivera@northwind.example",
         *           "name": "Sam Rivera",
         *           "role": "agent",
         *           "status": "invited",
         *           "invitedAt": "2026-03-02T09:00:00.000Z",
         *           "joinedAt": null,
         *           "removedAt": null,
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:12:30.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'auth.member.invited';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            member: components['schemas']['Member'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_auth_member_joined: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "auth.member.joined",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "member": {
         *           "_id": "66a1f0c2b9e84d7a3c5e1f22",
         *           "email": "sam.rivera@northwind.example",
         *           "name": "Sam Rivera",
         *           "role": "agent",
         *           "status": "active",
         *           "invitedAt": "2026-03-02T09:00:00.000Z",
         *           "joinedAt": "2026-03-02T09:12:30.000Z",
         *           "removedAt": null,
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:12:30.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'auth.member.joined';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            member: components['schemas']['Member'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_auth_member_removed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "auth.member.removed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "member": {
         *           "_id": "66a1f0c2b9e84d7a3c5e1f22",
         *           "email": "sam.rivera@northwind.example",
         *           "name": "Sam Rivera",
         *           "role": "agent",
         *           "status": "active",
         *           "invitedAt": "2026-03-02T09:00:00.000Z",
         *           "joinedAt": "2026-03-02T09:12:30.000Z",
         *           "removedAt": null,
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:12:30.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'auth.member.removed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            member: components['schemas']['Member'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_auth_member_role_changed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "auth.member.role_changed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "member": {
         *           "_id": "66a1f0c2b9e84d7a3c5e1f22",
         *           "email": "sam.rivera@northwind.example",
         *           "name": "Sam Rivera",
         *           "role": "manager",
         *           "status": "active",
         *           "invitedAt": "2026-03-02T09:00:00.000Z",
         *           "joinedAt": "2026-03-02T09:12:30.000Z",
         *           "removedAt": null,
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:12:30.000Z"
         *         }
         *       },
         *       "changes": {
         *         "role": [
         *           "agent",
         *           "manager"
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'auth.member.role_changed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            member: components['schemas']['Member'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_lead_created: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.lead.created",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "lead": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e01",
         *           "title": "Bluebird Café: monthly espresso blend",
         *           "pipelineId": "66a0ff41c7b24e1d8a9f3c10",
         *           "stageId": "66a0ff41c7b24e1d8a9f3c12",
         *           "status": "open",
         *           "value": {
         *             "amount": 240000,
         *             "currency": "EUR"
         *           },
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "source": "email",
         *           "expectedCloseDate": "2026-03-31",
         *           "lostReason": null,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "attributes": {
         *             "bagsPerMonth": 40
         *           },
         *           "stageEnteredAt": "2026-03-10T08:21:40.000Z",
         *           "closedAt": null,
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.lead.created';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            lead: components['schemas']['Lead'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_lead_updated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.lead.updated",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "lead": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e01",
         *           "title": "Bluebird Café: monthly espresso blend",
         *           "pipelineId": "66a0ff41c7b24e1d8a9f3c10",
         *           "stageId": "66a0ff41c7b24e1d8a9f3c12",
         *           "status": "open",
         *           "value": {
         *             "amount": 240000,
         *             "currency": "EUR"
         *           },
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "source": "email",
         *           "expectedCloseDate": "2026-03-31",
         *           "lostReason": null,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "attributes": {
         *             "bagsPerMonth": 40
         *           },
         *           "stageEnteredAt": "2026-03-10T08:21:40.000Z",
         *           "closedAt": null,
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.lead.updated';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            lead: components['schemas']['Lead'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_lead_deleted: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.lead.deleted",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "lead": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e01",
         *           "title": "Bluebird Café: monthly espresso blend",
         *           "pipelineId": "66a0ff41c7b24e1d8a9f3c10",
         *           "stageId": "66a0ff41c7b24e1d8a9f3c12",
         *           "status": "open",
         *           "value": {
         *             "amount": 240000,
         *             "currency": "EUR"
         *           },
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "source": "email",
         *           "expectedCloseDate": "2026-03-31",
         *           "lostReason": null,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "attributes": {
         *             "bagsPerMonth": 40
         *           },
         *           "stageEnteredAt": "2026-03-10T08:21:40.000Z",
         *           "closedAt": null,
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.lead.deleted';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            lead: components['schemas']['Lead'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_lead_stage_changed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.lead.stage_changed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "lead": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e01",
         *           "title": "Bluebird Café: monthly espresso blend",
         *           "pipelineId": "66a0ff41c7b24e1d8a9f3c10",
         *           "stageId": "66a0ff41c7b24e1d8a9f3c12",
         *           "status": "open",
         *           "value": {
         *             "amount": 240000,
         *             "currency": "EUR"
         *           },
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "source": "email",
         *           "expectedCloseDate": "2026-03-31",
         *           "lostReason": null,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "attributes": {
         *             "bagsPerMonth": 40
         *           },
         *           "stageEnteredAt": "2026-03-10T08:21:40.000Z",
         *           "closedAt": null,
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T09:05:00.000Z"
         *         }
         *       },
         *       "changes": {
         *         "stageId": [
         *           "66a0ff41c7b24e1d8a9f3c11",
         *           "66a0ff41c7b24e1d8a9f3c12"
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.lead.stage_changed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            lead: components['schemas']['Lead'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_lead_assigned: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.lead.assigned",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "lead": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e01",
         *           "title": "Bluebird Café: monthly espresso blend",
         *           "pipelineId": "66a0ff41c7b24e1d8a9f3c10",
         *           "stageId": "66a0ff41c7b24e1d8a9f3c12",
         *           "status": "open",
         *           "value": {
         *             "amount": 240000,
         *             "currency": "EUR"
         *           },
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "source": "email",
         *           "expectedCloseDate": "2026-03-31",
         *           "lostReason": null,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "attributes": {
         *             "bagsPerMonth": 40
         *           },
         *           "stageEnteredAt": "2026-03-10T08:21:40.000Z",
         *           "closedAt": null,
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.lead.assigned';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            lead: components['schemas']['Lead'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_lead_won: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.lead.won",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "lead": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e01",
         *           "title": "Bluebird Café: monthly espresso blend",
         *           "pipelineId": "66a0ff41c7b24e1d8a9f3c10",
         *           "stageId": "66a0ff41c7b24e1d8a9f3c13",
         *           "status": "won",
         *           "value": {
         *             "amount": 240000,
         *             "currency": "EUR"
         *           },
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "source": "email",
         *           "expectedCloseDate": "2026-03-31",
         *           "lostReason": null,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "attributes": {
         *             "bagsPerMonth": 40
         *           },
         *           "stageEnteredAt": "2026-03-10T08:21:40.000Z",
         *           "closedAt": "2026-03-10T09:05:00.000Z",
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T09:05:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.lead.won';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            lead: components['schemas']['Lead'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_lead_lost: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.lead.lost",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "lead": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e01",
         *           "title": "Bluebird Café: monthly espresso blend",
         *           "pipelineId": "66a0ff41c7b24e1d8a9f3c10",
         *           "stageId": "66a0ff41c7b24e1d8a9f3c14",
         *           "status": "lost",
         *           "value": {
         *             "amount": 240000,
         *             "currency": "EUR"
         *           },
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "source": "email",
         *           "expectedCloseDate": "2026-03-31",
         *           "lostReason": "Chose a local roaster",
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "attributes": {
         *             "bagsPerMonth": 40
         *           },
         *           "stageEnteredAt": "2026-03-10T08:21:40.000Z",
         *           "closedAt": "2026-03-10T09:05:00.000Z",
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T09:05:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.lead.lost';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            lead: components['schemas']['Lead'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_lead_tagged: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.lead.tagged",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "lead": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e01",
         *           "title": "Bluebird Café: monthly espresso blend",
         *           "pipelineId": "66a0ff41c7b24e1d8a9f3c10",
         *           "stageId": "66a0ff41c7b24e1d8a9f3c12",
         *           "status": "open",
         *           "value": {
         *             "amount": 240000,
         *             "currency": "EUR"
         *           },
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "source": "email",
         *           "expectedCloseDate": "2026-03-31",
         *           "lostReason": null,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "attributes": {
         *             "bagsPerMonth": 40
         *           },
         *           "stageEnteredAt": "2026-03-10T08:21:40.000Z",
         *           "closedAt": null,
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         },
         *         "tags": [
         *           {
         *             "_id": "66a0ff41c7b24e1d8a9f3c01",
         *             "name": "Wholesale",
         *             "color": "#2e7d32",
         *             "description": "Cafés and shops that buy beans in bulk",
         *             "createdAt": "2026-03-02T09:00:00.000Z",
         *             "updatedAt": "2026-03-02T09:00:00.000Z"
         *           }
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.lead.tagged';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            lead: components['schemas']['Lead'];
            tags: components['schemas']['Tag'][];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_lead_untagged: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.lead.untagged",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "lead": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e01",
         *           "title": "Bluebird Café: monthly espresso blend",
         *           "pipelineId": "66a0ff41c7b24e1d8a9f3c10",
         *           "stageId": "66a0ff41c7b24e1d8a9f3c12",
         *           "status": "open",
         *           "value": {
         *             "amount": 240000,
         *             "currency": "EUR"
         *           },
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "source": "email",
         *           "expectedCloseDate": "2026-03-31",
         *           "lostReason": null,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "attributes": {
         *             "bagsPerMonth": 40
         *           },
         *           "stageEnteredAt": "2026-03-10T08:21:40.000Z",
         *           "closedAt": null,
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         },
         *         "tags": [
         *           {
         *             "_id": "66a0ff41c7b24e1d8a9f3c01",
         *             "name": "Wholesale",
         *             "color": "#2e7d32",
         *             "description": "Cafés and shops that buy beans in bulk",
         *             "createdAt": "2026-03-02T09:00:00.000Z",
         *             "updatedAt": "2026-03-02T09:00:00.000Z"
         *           }
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.lead.untagged';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            lead: components['schemas']['Lead'];
            tags: components['schemas']['Tag'][];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_pipeline_created: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.pipeline.created",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "pipeline": {
         *           "_id": "66a0ff41c7b24e1d8a9f3c10",
         *           "name": "Wholesale",
         *           "stages": [
         *             {
         *               "_id": "66a0ff41c7b24e1d8a9f3c11",
         *               "name": "New enquiry",
         *               "kind": "open",
         *               "probability": 0.1,
         *               "position": 0
         *             },
         *             {
         *               "_id": "66a0ff41c7b24e1d8a9f3c12",
         *               "name": "Proposal sent",
         *               "kind": "open",
         *               "probability": 0.5,
         *               "position": 1
         *             },
         *             {
         *               "_id": "66a0ff41c7b24e1d8a9f3c13",
         *               "name": "Won",
         *               "kind": "won",
         *               "probability": 1,
         *               "position": 2
         *             },
         *             {
         *               "_id": "66a0ff41c7b24e1d8a9f3c14",
         *               "name": "Lost",
         *               "kind": "lost",
         *               "probability": 0,
         *               "position": 3
         *             }
         *           ],
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:00:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.pipeline.created';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            pipeline: components['schemas']['Pipeline'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_pipeline_updated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.pipeline.updated",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "pipeline": {
         *           "_id": "66a0ff41c7b24e1d8a9f3c10",
         *           "name": "Wholesale",
         *           "stages": [
         *             {
         *               "_id": "66a0ff41c7b24e1d8a9f3c11",
         *               "name": "New enquiry",
         *               "kind": "open",
         *               "probability": 0.1,
         *               "position": 0
         *             },
         *             {
         *               "_id": "66a0ff41c7b24e1d8a9f3c12",
         *               "name": "Proposal sent",
         *               "kind": "open",
         *               "probability": 0.5,
         *               "position": 1
         *             },
         *             {
         *               "_id": "66a0ff41c7b24e1d8a9f3c13",
         *               "name": "Won",
         *               "kind": "won",
         *               "probability": 1,
         *               "position": 2
         *             },
         *             {
         *               "_id": "66a0ff41c7b24e1d8a9f3c14",
         *               "name": "Lost",
         *               "kind": "lost",
         *               "probability": 0,
         *               "position": 3
         *             }
         *           ],
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:00:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.pipeline.updated';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            pipeline: components['schemas']['Pipeline'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_pipeline_deleted: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.pipeline.deleted",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "pipeline": {
         *           "_id": "66a0ff41c7b24e1d8a9f3c10",
         *           "name": "Wholesale",
         *           "stages": [
         *             {
         *               "_id": "66a0ff41c7b24e1d8a9f3c11",
         *               "name": "New enquiry",
         *               "kind": "open",
         *               "probability": 0.1,
         *               "position": 0
         *             },
         *             {
         *               "_id": "66a0ff41c7b24e1d8a9f3c12",
         *               "name": "Proposal sent",
         *               "kind": "open",
         *               "probability": 0.5,
         *               "position": 1
         *             },
         *             {
         *               "_id": "66a0ff41c7b24e1d8a9f3c13",
         *               "name": "Won",
         *               "kind": "won",
         *               "probability": 1,
         *               "position": 2
         *             },
         *             {
         *               "_id": "66a0ff41c7b24e1d8a9f3c14",
         *               "name": "Lost",
         *               "kind": "lost",
         *               "probability": 0,
         *               "position": 3
         *             }
         *           ],
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:00:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.pipeline.deleted';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            pipeline: components['schemas']['Pipeline'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_task_created: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.task.created",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "task": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e02",
         *           "title": "Send Bluebird the wholesale price list",
         *           "description": "Include the 5 kg bag options.",
         *           "status": "open",
         *           "priority": "high",
         *           "dueAt": "2026-03-12T15:00:00.000Z",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "leadId": "66a2101b3e4f5a6b7c8d9e01",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "completedAt": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.task.created';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            task: components['schemas']['Task'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_task_updated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.task.updated",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "task": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e02",
         *           "title": "Send Bluebird the wholesale price list",
         *           "description": "Include the 5 kg bag options.",
         *           "status": "open",
         *           "priority": "high",
         *           "dueAt": "2026-03-12T15:00:00.000Z",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "leadId": "66a2101b3e4f5a6b7c8d9e01",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "completedAt": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.task.updated';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            task: components['schemas']['Task'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_task_completed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.task.completed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "task": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e02",
         *           "title": "Send Bluebird the wholesale price list",
         *           "description": "Include the 5 kg bag options.",
         *           "status": "completed",
         *           "priority": "high",
         *           "dueAt": "2026-03-12T15:00:00.000Z",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "leadId": "66a2101b3e4f5a6b7c8d9e01",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "completedAt": "2026-03-10T09:05:00.000Z",
         *           "createdAt": "2026-03-10T08:21:40.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.task.completed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            task: components['schemas']['Task'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_task_deleted: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.task.deleted",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "task": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e02",
         *           "title": "Send Bluebird the wholesale price list",
         *           "description": "Include the 5 kg bag options.",
         *           "status": "open",
         *           "priority": "high",
         *           "dueAt": "2026-03-12T15:00:00.000Z",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "leadId": "66a2101b3e4f5a6b7c8d9e01",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "completedAt": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.task.deleted';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            task: components['schemas']['Task'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_task_due: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.task.due",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "task": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e02",
         *           "title": "Send Bluebird the wholesale price list",
         *           "description": "Include the 5 kg bag options.",
         *           "status": "open",
         *           "priority": "high",
         *           "dueAt": "2026-03-12T15:00:00.000Z",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "leadId": "66a2101b3e4f5a6b7c8d9e01",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "completedAt": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.task.due';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            task: components['schemas']['Task'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_activity_added: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.activity.added",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "activity": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e03",
         *           "type": "call",
         *           "leadId": "66a2101b3e4f5a6b7c8d9e01",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "subject": "Intro call with Maya",
         *           "body": "Wants 40 bags a month from April; asked for a tasting box.",
         *           "occurredAt": "2026-03-11T14:00:00.000Z",
         *           "durationSeconds": 900,
         *           "details": null,
         *           "createdAt": "2026-03-11T14:20:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.activity.added';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            activity: components['schemas']['Activity'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_crm_activity_deleted: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "crm.activity.deleted",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "activity": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e03",
         *           "type": "call",
         *           "leadId": "66a2101b3e4f5a6b7c8d9e01",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "subject": "Intro call with Maya",
         *           "body": "Wants 40 bags a month from April; asked for a tasting box.",
         *           "occurredAt": "2026-03-11T14:00:00.000Z",
         *           "durationSeconds": 900,
         *           "details": null,
         *           "createdAt": "2026-03-11T14:20:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'crm.activity.deleted';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            activity: components['schemas']['Activity'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_channel_account_connected: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "channel.account.connected",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "account": {
         *           "_id": "66a0fe12a3b4c5d6e7f80911",
         *           "type": "email",
         *           "name": "Support inbox",
         *           "status": "connected",
         *           "config": {
         *             "from": "support@northwind.example",
         *             "host": "smtp.northwind.example",
         *             "port": 587,
         *             "secure": false,
         *             "username": "support@northwind.example"
         *           },
         *           "ratePerSecond": 20,
         *           "secretNames": [
         *             "smtpPassword"
         *           ],
         *           "lastError": null,
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:00:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'channel.account.connected';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            account: components['schemas']['ChannelAccount'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_channel_account_disconnected: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "channel.account.disconnected",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "account": {
         *           "_id": "66a0fe12a3b4c5d6e7f80911",
         *           "type": "email",
         *           "name": "Support inbox",
         *           "status": "disconnected",
         *           "config": {
         *             "from": "support@northwind.example",
         *             "host": "smtp.northwind.example",
         *             "port": 587,
         *             "secure": false,
         *             "username": "support@northwind.example"
         *           },
         *           "ratePerSecond": 20,
         *           "secretNames": [
         *             "smtpPassword"
         *           ],
         *           "lastError": null,
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T09:05:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'channel.account.disconnected';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            account: components['schemas']['ChannelAccount'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_channel_account_updated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "channel.account.updated",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "account": {
         *           "_id": "66a0fe12a3b4c5d6e7f80911",
         *           "type": "email",
         *           "name": "Support inbox",
         *           "status": "connected",
         *           "config": {
         *             "from": "support@northwind.example",
         *             "host": "smtp.northwind.example",
         *             "port": 587,
         *             "secure": false,
         *             "username": "support@northwind.example"
         *           },
         *           "ratePerSecond": 20,
         *           "secretNames": [
         *             "smtpPassword"
         *           ],
         *           "lastError": null,
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:00:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'channel.account.updated';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            account: components['schemas']['ChannelAccount'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_channel_account_errored: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "channel.account.errored",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "account": {
         *           "_id": "66a0fe12a3b4c5d6e7f80911",
         *           "type": "email",
         *           "name": "Support inbox",
         *           "status": "error",
         *           "config": {
         *             "from": "support@northwind.example",
         *             "host": "smtp.northwind.example",
         *             "port": 587,
         *             "secure": false,
         *             "username": "support@northwind.example"
         *           },
         *           "ratePerSecond": 20,
         *           "secretNames": [
         *             "smtpPassword"
         *           ],
         *           "lastError": {
         *             "reason": "SMTP login failed: 535 authentication failed",
         *             "at": "2026-03-10T09:05:00.000Z"
         *           },
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T09:05:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'channel.account.errored';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            account: components['schemas']['ChannelAccount'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_channel_account_deleted: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "channel.account.deleted",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "account": {
         *           "_id": "66a0fe12a3b4c5d6e7f80911",
         *           "type": "email",
         *           "name": "Support inbox",
         *           "status": "connected",
         *           "config": {
         *             "from": "support@northwind.example",
         *             "host": "smtp.northwind.example",
         *             "port": 587,
         *             "secure": false,
         *             "username": "support@northwind.example"
         *           },
         *           "ratePerSecond": 20,
         *           "secretNames": [
         *             "smtpPassword"
         *           ],
         *           "lastError": null,
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:00:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'channel.account.deleted';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            account: components['schemas']['ChannelAccount'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_channel_message_status_changed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "channel.message.status_changed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "message": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d12",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "type": "outgoing",
         *           "private": false,
         *           "content": "Hi Maya, your order left our roastery this morning; tracking code NL-88213. Sorry for the wait!",
         *           "attachments": [],
         *           "deliveryStatus": "delivered",
         *           "failureReason": null,
         *           "author": {
         *             "type": "token",
         *             "id": "66a1f0c2b9e84d7a3c5e1f23"
         *           },
         *           "externalId": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z"
         *         },
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       },
         *       "changes": {
         *         "deliveryStatus": [
         *           "sent",
         *           "delivered"
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'channel.message.status_changed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            message: components['schemas']['Message'];
            conversation: components['schemas']['Conversation'] | null;
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_channel_message_sent: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "channel.message.sent",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "message": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d12",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "type": "outgoing",
         *           "private": false,
         *           "content": "Hi Maya, your order left our roastery this morning; tracking code NL-88213. Sorry for the wait!",
         *           "attachments": [],
         *           "deliveryStatus": "sent",
         *           "failureReason": null,
         *           "author": {
         *             "type": "token",
         *             "id": "66a1f0c2b9e84d7a3c5e1f23"
         *           },
         *           "externalId": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z"
         *         },
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'channel.message.sent';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            message: components['schemas']['Message'];
            conversation: components['schemas']['Conversation'] | null;
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_channel_message_delivered: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "channel.message.delivered",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "message": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d12",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "type": "outgoing",
         *           "private": false,
         *           "content": "Hi Maya, your order left our roastery this morning; tracking code NL-88213. Sorry for the wait!",
         *           "attachments": [],
         *           "deliveryStatus": "delivered",
         *           "failureReason": null,
         *           "author": {
         *             "type": "token",
         *             "id": "66a1f0c2b9e84d7a3c5e1f23"
         *           },
         *           "externalId": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z"
         *         },
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'channel.message.delivered';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            message: components['schemas']['Message'];
            conversation: components['schemas']['Conversation'] | null;
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_channel_message_read: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "channel.message.read",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "message": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d12",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "type": "outgoing",
         *           "private": false,
         *           "content": "Hi Maya, your order left our roastery this morning; tracking code NL-88213. Sorry for the wait!",
         *           "attachments": [],
         *           "deliveryStatus": "read",
         *           "failureReason": null,
         *           "author": {
         *             "type": "token",
         *             "id": "66a1f0c2b9e84d7a3c5e1f23"
         *           },
         *           "externalId": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z"
         *         },
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'channel.message.read';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            message: components['schemas']['Message'];
            conversation: components['schemas']['Conversation'] | null;
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_channel_message_failed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "channel.message.failed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "message": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d12",
         *           "conversationId": "66a2035e7d1c4f2a9b3e5d10",
         *           "type": "outgoing",
         *           "private": false,
         *           "content": "Hi Maya, your order left our roastery this morning; tracking code NL-88213. Sorry for the wait!",
         *           "attachments": [],
         *           "deliveryStatus": "failed",
         *           "failureReason": "invalid_recipient",
         *           "author": {
         *             "type": "token",
         *             "id": "66a1f0c2b9e84d7a3c5e1f23"
         *           },
         *           "externalId": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z"
         *         },
         *         "conversation": {
         *           "_id": "66a2035e7d1c4f2a9b3e5d10",
         *           "number": 1042,
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "channel": "email",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "status": "open",
         *           "snoozedUntil": null,
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "priority": "high",
         *           "subject": "Order #4521 has not arrived",
         *           "lastMessageAt": "2026-03-10T08:21:40.000Z",
         *           "unreadCount": 0,
         *           "messageCount": 2,
         *           "tagIds": [
         *             "66a0ff41c7b24e1d8a9f3c01"
         *           ],
         *           "createdAt": "2026-03-10T08:14:05.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'channel.message.failed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            message: components['schemas']['Message'];
            conversation: components['schemas']['Conversation'] | null;
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_workflow_definition_created: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "workflow.definition.created",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "definition": {
         *           "_id": "66a0fe12a3b4c5d6e7f80930",
         *           "name": "Notify the roastery of urgent conversations",
         *           "description": "Posts urgent conversations to the roastery’s order system.",
         *           "active": true,
         *           "version": 2,
         *           "trigger": {
         *             "type": "event",
         *             "eventTypes": [
         *               "inbox.conversation.priority_changed"
         *             ],
         *             "filter": {
         *               "conversation.priority": "urgent"
         *             }
         *           },
         *           "nodes": [
         *             {
         *               "id": "again",
         *               "type": "retry",
         *               "name": "Retry twice",
         *               "config": {
         *                 "maxAttempts": 2,
         *                 "backoff": "exponential",
         *                 "baseDelaySeconds": 30
         *               }
         *             },
         *             {
         *               "id": "post",
         *               "type": "http_request",
         *               "name": "Tell the roastery",
         *               "config": {
         *                 "method": "POST",
         *                 "url": "https://orders.northwind.example/urgent",
         *                 "body": {
         *                   "conversation": "{{trigger.conversation._id}}"
         *                 }
         *               }
         *             },
         *             {
         *               "id": "note",
         *               "type": "add_note",
         *               "config": {
         *                 "conversationId": "{{trigger.conversation._id}}",
         *                 "content": "The roastery has been told."
         *               }
         *             }
         *           ],
         *           "edges": [
         *             {
         *               "from": "again",
         *               "to": "post",
         *               "branch": "body"
         *             },
         *             {
         *               "from": "again",
         *               "to": "note",
         *               "branch": "next"
         *             }
         *           ],
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T08:14:05.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'workflow.definition.created';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            definition: components['schemas']['Workflow'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_workflow_definition_updated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "workflow.definition.updated",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "definition": {
         *           "_id": "66a0fe12a3b4c5d6e7f80930",
         *           "name": "Notify the roastery of urgent conversations",
         *           "description": "Posts urgent conversations to the roastery’s order system.",
         *           "active": true,
         *           "version": 2,
         *           "trigger": {
         *             "type": "event",
         *             "eventTypes": [
         *               "inbox.conversation.priority_changed"
         *             ],
         *             "filter": {
         *               "conversation.priority": "urgent"
         *             }
         *           },
         *           "nodes": [
         *             {
         *               "id": "again",
         *               "type": "retry",
         *               "name": "Retry twice",
         *               "config": {
         *                 "maxAttempts": 2,
         *                 "backoff": "exponential",
         *                 "baseDelaySeconds": 30
         *               }
         *             },
         *             {
         *               "id": "post",
         *               "type": "http_request",
         *               "name": "Tell the roastery",
         *               "config": {
         *                 "method": "POST",
         *                 "url": "https://orders.northwind.example/urgent",
         *                 "body": {
         *                   "conversation": "{{trigger.conversation._id}}"
         *                 }
         *               }
         *             },
         *             {
         *               "id": "note",
         *               "type": "add_note",
         *               "config": {
         *                 "conversationId": "{{trigger.conversation._id}}",
         *                 "content": "The roastery has been told."
         *               }
         *             }
         *           ],
         *           "edges": [
         *             {
         *               "from": "again",
         *               "to": "post",
         *               "branch": "body"
         *             },
         *             {
         *               "from": "again",
         *               "to": "note",
         *               "branch": "next"
         *             }
         *           ],
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T08:14:05.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'workflow.definition.updated';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            definition: components['schemas']['Workflow'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_workflow_definition_activated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "workflow.definition.activated",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "definition": {
         *           "_id": "66a0fe12a3b4c5d6e7f80930",
         *           "name": "Notify the roastery of urgent conversations",
         *           "description": "Posts urgent conversations to the roastery’s order system.",
         *           "active": true,
         *           "version": 2,
         *           "trigger": {
         *             "type": "event",
         *             "eventTypes": [
         *               "inbox.conversation.priority_changed"
         *             ],
         *             "filter": {
         *               "conversation.priority": "urgent"
         *             }
         *           },
         *           "nodes": [
         *             {
         *               "id": "again",
         *               "type": "retry",
         *               "name": "Retry twice",
         *               "config": {
         *                 "maxAttempts": 2,
         *                 "backoff": "exponential",
         *                 "baseDelaySeconds": 30
         *               }
         *             },
         *             {
         *               "id": "post",
         *               "type": "http_request",
         *               "name": "Tell the roastery",
         *               "config": {
         *                 "method": "POST",
         *                 "url": "https://orders.northwind.example/urgent",
         *                 "body": {
         *                   "conversation": "{{trigger.conversation._id}}"
         *                 }
         *               }
         *             },
         *             {
         *               "id": "note",
         *               "type": "add_note",
         *               "config": {
         *                 "conversationId": "{{trigger.conversation._id}}",
         *                 "content": "The roastery has been told."
         *               }
         *             }
         *           ],
         *           "edges": [
         *             {
         *               "from": "again",
         *               "to": "post",
         *               "branch": "body"
         *             },
         *             {
         *               "from": "again",
         *               "to": "note",
         *               "branch": "next"
         *             }
         *           ],
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T08:14:05.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'workflow.definition.activated';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            definition: components['schemas']['Workflow'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_workflow_definition_deactivated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "workflow.definition.deactivated",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "definition": {
         *           "_id": "66a0fe12a3b4c5d6e7f80930",
         *           "name": "Notify the roastery of urgent conversations",
         *           "description": "Posts urgent conversations to the roastery’s order system.",
         *           "active": false,
         *           "version": 2,
         *           "trigger": {
         *             "type": "event",
         *             "eventTypes": [
         *               "inbox.conversation.priority_changed"
         *             ],
         *             "filter": {
         *               "conversation.priority": "urgent"
         *             }
         *           },
         *           "nodes": [
         *             {
         *               "id": "again",
         *               "type": "retry",
         *               "name": "Retry twice",
         *               "config": {
         *                 "maxAttempts": 2,
         *                 "backoff": "exponential",
         *                 "baseDelaySeconds": 30
         *               }
         *             },
         *             {
         *               "id": "post",
         *               "type": "http_request",
         *               "name": "Tell the roastery",
         *               "config": {
         *                 "method": "POST",
         *                 "url": "https://orders.northwind.example/urgent",
         *                 "body": {
         *                   "conversation": "{{trigger.conversation._id}}"
         *                 }
         *               }
         *             },
         *             {
         *               "id": "note",
         *               "type": "add_note",
         *               "config": {
         *                 "conversationId": "{{trigger.conversation._id}}",
         *                 "content": "The roastery has been told."
         *               }
         *             }
         *           ],
         *           "edges": [
         *             {
         *               "from": "again",
         *               "to": "post",
         *               "branch": "body"
         *             },
         *             {
         *               "from": "again",
         *               "to": "note",
         *               "branch": "next"
         *             }
         *           ],
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T08:14:05.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'workflow.definition.deactivated';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            definition: components['schemas']['Workflow'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_workflow_definition_deleted: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "workflow.definition.deleted",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "definition": {
         *           "_id": "66a0fe12a3b4c5d6e7f80930",
         *           "name": "Notify the roastery of urgent conversations",
         *           "description": "Posts urgent conversations to the roastery’s order system.",
         *           "active": true,
         *           "version": 2,
         *           "trigger": {
         *             "type": "event",
         *             "eventTypes": [
         *               "inbox.conversation.priority_changed"
         *             ],
         *             "filter": {
         *               "conversation.priority": "urgent"
         *             }
         *           },
         *           "nodes": [
         *             {
         *               "id": "again",
         *               "type": "retry",
         *               "name": "Retry twice",
         *               "config": {
         *                 "maxAttempts": 2,
         *                 "backoff": "exponential",
         *                 "baseDelaySeconds": 30
         *               }
         *             },
         *             {
         *               "id": "post",
         *               "type": "http_request",
         *               "name": "Tell the roastery",
         *               "config": {
         *                 "method": "POST",
         *                 "url": "https://orders.northwind.example/urgent",
         *                 "body": {
         *                   "conversation": "{{trigger.conversation._id}}"
         *                 }
         *               }
         *             },
         *             {
         *               "id": "note",
         *               "type": "add_note",
         *               "config": {
         *                 "conversationId": "{{trigger.conversation._id}}",
         *                 "content": "The roastery has been told."
         *               }
         *             }
         *           ],
         *           "edges": [
         *             {
         *               "from": "again",
         *               "to": "post",
         *               "branch": "body"
         *             },
         *             {
         *               "from": "again",
         *               "to": "note",
         *               "branch": "next"
         *             }
         *           ],
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-10T08:14:05.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'workflow.definition.deleted';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            definition: components['schemas']['Workflow'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_workflow_execution_started: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "workflow.execution.started",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "execution": {
         *           "_id": "66a2035f8e2d4a1b9c3f6e01",
         *           "workflowId": "66a0fe12a3b4c5d6e7f80930",
         *           "workflowVersion": 2,
         *           "status": "running",
         *           "trigger": {
         *             "type": "event",
         *             "eventId": "66a2035e7d1c4f2a9b3e5d20"
         *           },
         *           "depth": 1,
         *           "startedAt": "2026-03-10T08:30:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'workflow.execution.started';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            execution: components['schemas']['WorkflowExecution'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_workflow_execution_completed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "workflow.execution.completed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "execution": {
         *           "_id": "66a2035f8e2d4a1b9c3f6e01",
         *           "workflowId": "66a0fe12a3b4c5d6e7f80930",
         *           "workflowVersion": 2,
         *           "status": "completed",
         *           "trigger": {
         *             "type": "event",
         *             "eventId": "66a2035e7d1c4f2a9b3e5d20"
         *           },
         *           "depth": 1,
         *           "startedAt": "2026-03-10T08:30:00.000Z",
         *           "endedAt": "2026-03-10T08:30:31.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'workflow.execution.completed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            execution: components['schemas']['WorkflowExecution'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_workflow_execution_failed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "workflow.execution.failed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "execution": {
         *           "_id": "66a2035f8e2d4a1b9c3f6e01",
         *           "workflowId": "66a0fe12a3b4c5d6e7f80930",
         *           "workflowVersion": 2,
         *           "status": "failed",
         *           "trigger": {
         *             "type": "event",
         *             "eventId": "66a2035e7d1c4f2a9b3e5d20"
         *           },
         *           "depth": 1,
         *           "startedAt": "2026-03-10T08:30:00.000Z",
         *           "endedAt": "2026-03-10T08:30:31.000Z",
         *           "error": {
         *             "message": "HTTP 503 from orders.northwind.example",
         *             "category": "other",
         *             "nodeId": "post",
         *             "nodeType": "http_request"
         *           }
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'workflow.execution.failed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            execution: components['schemas']['WorkflowExecution'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_workflow_execution_cancelled: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "workflow.execution.cancelled",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "execution": {
         *           "_id": "66a2035f8e2d4a1b9c3f6e01",
         *           "workflowId": "66a0fe12a3b4c5d6e7f80930",
         *           "workflowVersion": 2,
         *           "status": "cancelled",
         *           "trigger": {
         *             "type": "event",
         *             "eventId": "66a2035e7d1c4f2a9b3e5d20"
         *           },
         *           "depth": 1,
         *           "startedAt": "2026-03-10T08:30:00.000Z",
         *           "endedAt": "2026-03-10T08:30:31.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'workflow.execution.cancelled';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            execution: components['schemas']['WorkflowExecution'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_workflow_step_failed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "workflow.step.failed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "step": {
         *           "nodeId": "post",
         *           "nodeType": "http_request",
         *           "attempt": 3,
         *           "status": "failed",
         *           "startedAt": "2026-03-10T08:30:30.000Z",
         *           "endedAt": "2026-03-10T08:30:31.000Z",
         *           "delayBeforeMs": 60000,
         *           "error": {
         *             "message": "HTTP 503 from orders.northwind.example",
         *             "category": "other"
         *           }
         *         },
         *         "execution": {
         *           "_id": "66a2035f8e2d4a1b9c3f6e01",
         *           "workflowId": "66a0fe12a3b4c5d6e7f80930",
         *           "workflowVersion": 2,
         *           "status": "failed",
         *           "trigger": {
         *             "type": "event",
         *             "eventId": "66a2035e7d1c4f2a9b3e5d20"
         *           },
         *           "depth": 1,
         *           "startedAt": "2026-03-10T08:30:00.000Z",
         *           "endedAt": "2026-03-10T08:30:31.000Z",
         *           "error": {
         *             "message": "HTTP 503 from orders.northwind.example",
         *             "category": "other",
         *             "nodeId": "post",
         *             "nodeType": "http_request"
         *           }
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'workflow.step.failed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            step: components['schemas']['WorkflowStep'];
            execution: components['schemas']['WorkflowExecution'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_ai_article_created: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "ai.article.created",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "article": {
         *           "_id": "66a0fe12a3b4c5d6e7f80940",
         *           "title": "When will my order arrive?",
         *           "body": "Orders placed before 14:00 leave the roastery the same day and arrive in 1–2 working days in the Netherlands.",
         *           "tags": [
         *             "shipping"
         *           ],
         *           "published": true,
         *           "locale": "en",
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:00:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'ai.article.created';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            article: components['schemas']['Article'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_ai_article_updated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "ai.article.updated",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "article": {
         *           "_id": "66a0fe12a3b4c5d6e7f80940",
         *           "title": "When will my order arrive?",
         *           "body": "Orders placed before 14:00 leave the roastery the same day and arrive in 1–2 working days in the Netherlands.",
         *           "tags": [
         *             "shipping"
         *           ],
         *           "published": true,
         *           "locale": "en",
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:00:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'ai.article.updated';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            article: components['schemas']['Article'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_ai_article_deleted: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "ai.article.deleted",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "article": {
         *           "_id": "66a0fe12a3b4c5d6e7f80940",
         *           "title": "When will my order arrive?",
         *           "body": "Orders placed before 14:00 leave the roastery the same day and arrive in 1–2 working days in the Netherlands.",
         *           "tags": [
         *             "shipping"
         *           ],
         *           "published": true,
         *           "locale": "en",
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:00:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'ai.article.deleted';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            article: components['schemas']['Article'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_broadcast_campaign_scheduled: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "broadcast.campaign.scheduled",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "campaign": {
         *           "_id": "66a0fe12a3b4c5d6e7f80950",
         *           "name": "Spring single-origin launch",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "audience": {
         *             "tagIds": [
         *               "66a0ff41c7b24e1d8a9f3c01"
         *             ]
         *           },
         *           "content": "Our Ethiopian Guji is back: order before Friday for first-roast delivery.",
         *           "subject": "New: Ethiopia Guji",
         *           "status": "scheduled",
         *           "scheduledAt": "2026-03-09T08:00:00.000Z",
         *           "startedAt": null,
         *           "completedAt": null,
         *           "failureReason": null,
         *           "stats": {
         *             "recipients": 120,
         *             "sent": 118,
         *             "delivered": 115,
         *             "read": 64,
         *             "failed": 2,
         *             "skipped": 0,
         *             "cancelled": 0
         *           },
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-09T08:01:10.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'broadcast.campaign.scheduled';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            campaign: components['schemas']['Broadcast'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_broadcast_campaign_sending: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "broadcast.campaign.sending",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "campaign": {
         *           "_id": "66a0fe12a3b4c5d6e7f80950",
         *           "name": "Spring single-origin launch",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "audience": {
         *             "tagIds": [
         *               "66a0ff41c7b24e1d8a9f3c01"
         *             ]
         *           },
         *           "content": "Our Ethiopian Guji is back: order before Friday for first-roast delivery.",
         *           "subject": "New: Ethiopia Guji",
         *           "status": "sending",
         *           "scheduledAt": "2026-03-09T08:00:00.000Z",
         *           "startedAt": "2026-03-09T08:00:02.000Z",
         *           "completedAt": null,
         *           "failureReason": null,
         *           "stats": {
         *             "recipients": 120,
         *             "sent": 118,
         *             "delivered": 115,
         *             "read": 64,
         *             "failed": 2,
         *             "skipped": 0,
         *             "cancelled": 0
         *           },
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-09T08:01:10.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'broadcast.campaign.sending';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            campaign: components['schemas']['Broadcast'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_broadcast_campaign_sent: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "broadcast.campaign.sent",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "campaign": {
         *           "_id": "66a0fe12a3b4c5d6e7f80950",
         *           "name": "Spring single-origin launch",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "audience": {
         *             "tagIds": [
         *               "66a0ff41c7b24e1d8a9f3c01"
         *             ]
         *           },
         *           "content": "Our Ethiopian Guji is back: order before Friday for first-roast delivery.",
         *           "subject": "New: Ethiopia Guji",
         *           "status": "sent",
         *           "scheduledAt": "2026-03-09T08:00:00.000Z",
         *           "startedAt": "2026-03-09T08:00:02.000Z",
         *           "completedAt": "2026-03-09T08:01:10.000Z",
         *           "failureReason": null,
         *           "stats": {
         *             "recipients": 120,
         *             "sent": 118,
         *             "delivered": 115,
         *             "read": 64,
         *             "failed": 2,
         *             "skipped": 0,
         *             "cancelled": 0
         *           },
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-09T08:01:10.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'broadcast.campaign.sent';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            campaign: components['schemas']['Broadcast'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_broadcast_campaign_failed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "broadcast.campaign.failed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "campaign": {
         *           "_id": "66a0fe12a3b4c5d6e7f80950",
         *           "name": "Spring single-origin launch",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "audience": {
         *             "tagIds": [
         *               "66a0ff41c7b24e1d8a9f3c01"
         *             ]
         *           },
         *           "content": "Our Ethiopian Guji is back: order before Friday for first-roast delivery.",
         *           "subject": "New: Ethiopia Guji",
         *           "status": "failed",
         *           "scheduledAt": "2026-03-09T08:00:00.000Z",
         *           "startedAt": "2026-03-09T08:00:02.000Z",
         *           "completedAt": "2026-03-09T08:01:10.000Z",
         *           "failureReason": "Every recipient failed: channel_disconnected",
         *           "stats": {
         *             "recipients": 120,
         *             "sent": 118,
         *             "delivered": 115,
         *             "read": 64,
         *             "failed": 2,
         *             "skipped": 0,
         *             "cancelled": 0
         *           },
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-09T08:01:10.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'broadcast.campaign.failed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            campaign: components['schemas']['Broadcast'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_broadcast_campaign_cancelled: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "broadcast.campaign.cancelled",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "campaign": {
         *           "_id": "66a0fe12a3b4c5d6e7f80950",
         *           "name": "Spring single-origin launch",
         *           "channelId": "66a0fe12a3b4c5d6e7f80911",
         *           "audience": {
         *             "tagIds": [
         *               "66a0ff41c7b24e1d8a9f3c01"
         *             ]
         *           },
         *           "content": "Our Ethiopian Guji is back: order before Friday for first-roast delivery.",
         *           "subject": "New: Ethiopia Guji",
         *           "status": "cancelled",
         *           "scheduledAt": "2026-03-09T08:00:00.000Z",
         *           "startedAt": "2026-03-09T08:00:02.000Z",
         *           "completedAt": null,
         *           "failureReason": null,
         *           "stats": {
         *             "recipients": 120,
         *             "sent": 118,
         *             "delivered": 115,
         *             "read": 64,
         *             "failed": 2,
         *             "skipped": 0,
         *             "cancelled": 0
         *           },
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-09T08:01:10.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'broadcast.campaign.cancelled';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            campaign: components['schemas']['Broadcast'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_broadcast_recipient_delivered: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "broadcast.recipient.delivered",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "recipient": {
         *           "broadcastId": "66a0fe12a3b4c5d6e7f80950",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "status": "delivered",
         *           "reason": null,
         *           "sentAt": "2026-03-09T08:00:05.000Z",
         *           "updatedAt": "2026-03-09T08:00:09.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'broadcast.recipient.delivered';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            recipient: components['schemas']['BroadcastRecipient'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_broadcast_recipient_failed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "broadcast.recipient.failed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "recipient": {
         *           "broadcastId": "66a0fe12a3b4c5d6e7f80950",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "status": "failed",
         *           "reason": "invalid_recipient",
         *           "sentAt": null,
         *           "updatedAt": "2026-03-09T08:00:09.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'broadcast.recipient.failed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            recipient: components['schemas']['BroadcastRecipient'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_scheduling_booking_reminder: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "scheduling.booking.reminder",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "booking": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e10",
         *           "title": "Tasting session with Bluebird Café",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "startAt": "2026-03-13T10:00:00.000Z",
         *           "endAt": "2026-03-13T10:30:00.000Z",
         *           "timezone": "Europe/Amsterdam",
         *           "location": "Northwind roastery, Utrecht",
         *           "notes": "Bring the Guji and the house espresso.",
         *           "status": "confirmed",
         *           "cancellationReason": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         },
         *         "reminder": "24h"
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'scheduling.booking.reminder';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            booking: components['schemas']['Booking'];
            /** @enum {string} */
            reminder: '24h' | '1h';
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_scheduling_booking_created: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "scheduling.booking.created",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "booking": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e10",
         *           "title": "Tasting session with Bluebird Café",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "startAt": "2026-03-13T10:00:00.000Z",
         *           "endAt": "2026-03-13T10:30:00.000Z",
         *           "timezone": "Europe/Amsterdam",
         *           "location": "Northwind roastery, Utrecht",
         *           "notes": "Bring the Guji and the house espresso.",
         *           "status": "pending",
         *           "cancellationReason": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'scheduling.booking.created';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            booking: components['schemas']['Booking'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_scheduling_booking_confirmed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "scheduling.booking.confirmed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "booking": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e10",
         *           "title": "Tasting session with Bluebird Café",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "startAt": "2026-03-13T10:00:00.000Z",
         *           "endAt": "2026-03-13T10:30:00.000Z",
         *           "timezone": "Europe/Amsterdam",
         *           "location": "Northwind roastery, Utrecht",
         *           "notes": "Bring the Guji and the house espresso.",
         *           "status": "confirmed",
         *           "cancellationReason": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'scheduling.booking.confirmed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            booking: components['schemas']['Booking'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_scheduling_booking_rescheduled: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "scheduling.booking.rescheduled",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "booking": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e10",
         *           "title": "Tasting session with Bluebird Café",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "startAt": "2026-03-13T10:00:00.000Z",
         *           "endAt": "2026-03-13T10:30:00.000Z",
         *           "timezone": "Europe/Amsterdam",
         *           "location": "Northwind roastery, Utrecht",
         *           "notes": "Bring the Guji and the house espresso.",
         *           "status": "confirmed",
         *           "cancellationReason": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       },
         *       "changes": {
         *         "startAt": [
         *           "2026-03-12T10:00:00.000Z",
         *           "2026-03-13T10:00:00.000Z"
         *         ],
         *         "endAt": [
         *           "2026-03-12T10:30:00.000Z",
         *           "2026-03-13T10:30:00.000Z"
         *         ]
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'scheduling.booking.rescheduled';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            booking: components['schemas']['Booking'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_scheduling_booking_cancelled: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "scheduling.booking.cancelled",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "booking": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e10",
         *           "title": "Tasting session with Bluebird Café",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "startAt": "2026-03-13T10:00:00.000Z",
         *           "endAt": "2026-03-13T10:30:00.000Z",
         *           "timezone": "Europe/Amsterdam",
         *           "location": "Northwind roastery, Utrecht",
         *           "notes": "Bring the Guji and the house espresso.",
         *           "status": "cancelled",
         *           "cancellationReason": "Café closed for renovation that week",
         *           "createdAt": "2026-03-10T08:21:40.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'scheduling.booking.cancelled';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            booking: components['schemas']['Booking'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_scheduling_booking_completed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "scheduling.booking.completed",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "booking": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e10",
         *           "title": "Tasting session with Bluebird Café",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "startAt": "2026-03-13T10:00:00.000Z",
         *           "endAt": "2026-03-13T10:30:00.000Z",
         *           "timezone": "Europe/Amsterdam",
         *           "location": "Northwind roastery, Utrecht",
         *           "notes": "Bring the Guji and the house espresso.",
         *           "status": "completed",
         *           "cancellationReason": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'scheduling.booking.completed';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            booking: components['schemas']['Booking'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_scheduling_booking_no_show: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "scheduling.booking.no_show",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T09:05:00.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "booking": {
         *           "_id": "66a2101b3e4f5a6b7c8d9e10",
         *           "title": "Tasting session with Bluebird Café",
         *           "customerId": "66a1f1d09c3a4b5e6f708192",
         *           "assigneeId": "66a1f0c2b9e84d7a3c5e1f22",
         *           "startAt": "2026-03-13T10:00:00.000Z",
         *           "endAt": "2026-03-13T10:30:00.000Z",
         *           "timezone": "Europe/Amsterdam",
         *           "location": "Northwind roastery, Utrecht",
         *           "notes": "Bring the Guji and the house espresso.",
         *           "status": "no_show",
         *           "cancellationReason": null,
         *           "createdAt": "2026-03-10T08:21:40.000Z",
         *           "updatedAt": "2026-03-10T08:21:40.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'scheduling.booking.no_show';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            booking: components['schemas']['Booking'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_webhook_ping: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (Standard Webhooks) */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>` */
        'webhook-signature': string;
        /** @description `sha256=<hex HMAC-SHA256(secret, body)>` */
        'X-Webhook-Signature': string;
        'X-Webhook-Event': string;
        'X-Webhook-Delivery': string;
        'X-Webhook-Attempt': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {
         *       "eventId": "66a2035e7d1c4f2a9b3e5d20",
         *       "eventType": "webhook.ping",
         *       "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *       "livemode": true,
         *       "occurredAt": "2026-03-10T08:14:05.000Z",
         *       "apiVersion": "v1",
         *       "data": {
         *         "subscription": {
         *           "_id": "66a0fe12a3b4c5d6e7f80920",
         *           "workspaceId": "66a1f0c2b9e84d7a3c5e1f20",
         *           "livemode": true,
         *           "url": "https://hooks.bluebird.example/parley",
         *           "events": [
         *             "inbox.conversation.*",
         *             "crm.lead.won"
         *           ],
         *           "active": true,
         *           "consecutiveFailures": 0,
         *           "activatedAt": "2026-03-02T09:00:00.000Z",
         *           "createdAt": "2026-03-02T09:00:00.000Z",
         *           "updatedAt": "2026-03-02T09:00:00.000Z"
         *         }
         *       }
         *     } */
        'application/json': {
          eventId: string;
          /** @enum {string} */
          eventType: 'webhook.ping';
          workspaceId: string;
          livemode: boolean;
          occurredAt: string;
          /** @enum {string} */
          apiVersion: 'v1';
          data: {
            subscription: components['schemas']['WebhookSubscription'];
          };
          /** @description On updates: field → [before, after] */
          changes?: {
            [key: string]: [unknown, unknown];
          };
          /** @description The workflow run that caused the event, and the chain depth */
          causedBy?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the subscription is deactivated and no retry is scheduled */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}
