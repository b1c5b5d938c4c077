"""Generated protobuf and gRPC modules of the agentsvc.v1 API.

Everything but this file is produced by ``make gen-python``; do not edit it.
"""
