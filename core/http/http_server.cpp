#include "core/http/http_server.h"

#include <microhttpd.h>

#include "core/base/error.h"

namespace hitcounter::http {

namespace {

const char* headerOf(MHD_Connection* connection, const char* name) {
    const char* value = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
    return value ? value : "";
}

// libmicrohttpd's access handler: called when a request's headers are read, again for each
// piece of its body (discarded: nothing here takes one), and once more when it is complete,
// which is when the reply is queued (queued earlier, the library would close the connection
// after it instead of keeping it alive).
MHD_Result answer(void* handler, MHD_Connection* connection, const char* url, const char* method,
                  const char* /*version*/, const char* /*uploadData*/, size_t* uploadDataSize,
                  void** requestState) {
    static int headersRead;
    if (*requestState == nullptr) {
        *requestState = &headersRead;
        return MHD_YES;
    }
    if (*uploadDataSize != 0) {
        *uploadDataSize = 0;
        return MHD_YES;
    }
    const HttpRequest request{
        .method = method, .path = url, .accept = headerOf(connection, MHD_HTTP_HEADER_ACCEPT)};
    const HttpResponse reply = (*static_cast<HttpServer::Handler*>(handler))(request);
    MHD_Response* response = MHD_create_response_from_buffer(
        reply.body.size(), const_cast<char*>(reply.body.data()), MHD_RESPMEM_MUST_COPY);
    if (!response) {
        return MHD_NO;
    }
    if (!reply.contentType.empty()) {
        MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, reply.contentType.c_str());
    }
    if (!reply.allow.empty()) {
        MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, reply.allow.c_str());
    }
    const MHD_Result queued =
        MHD_queue_response(connection, static_cast<unsigned>(reply.status), response);
    MHD_destroy_response(response);
    return queued;
}

}  // namespace

HttpServer::HttpServer(UniqueFd listening, Handler handler, HttpServerOptions options)
    : m_socket(std::move(listening)), m_handler(std::move(handler)) {
    // ITC: a wake-up channel, so that the destructor can take the socket back (quiesce).
    const unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC;
    m_daemon =
        MHD_start_daemon(flags, 0, nullptr, nullptr, &answer, &m_handler, MHD_OPTION_LISTEN_SOCKET,
                         static_cast<MHD_socket>(m_socket.get()), MHD_OPTION_CONNECTION_LIMIT,
                         options.maxConnections, MHD_OPTION_CONNECTION_TIMEOUT,
                         static_cast<unsigned>(options.idleTimeout.count()),
                         MHD_OPTION_CONNECTION_MEMORY_LIMIT, options.requestMemory, MHD_OPTION_END);
    if (!m_daemon) {
        throw Error("cannot start the HTTP server (libmicrohttpd)");
    }
}

HttpServer::~HttpServer() {
    // The socket is ours (m_socket closes it): quiesce hands it back before the stop.
    MHD_quiesce_daemon(m_daemon);
    MHD_stop_daemon(m_daemon);
}

}  // namespace hitcounter::http
