import Logging
import SyncAgentCore

LoggingSystem.bootstrap { label in LineLogHandler(label: label) }
await SyncAgentCommand.execute()
