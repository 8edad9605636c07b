import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Store

/// Why a server's certificate was refused, in words a person can act on
/// (docs/configuration.md#tls): expired, not yet valid, issued for another
/// name, or issued by an authority the agent does not trust.
///
/// The TLS stack says only that verification failed; to tell why, the agent
/// connects once more without verifying, reads the certificate, and closes.
/// Nothing is sent on that connection.
enum CertificateDiagnosis {
    /// Whether `error` is a server certificate the agent refused.
    static func isRejection(_ error: any Error) -> Bool {
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname { return true }
        if case .handshakeFailed(let failure)? = error as? NIOSSLError {
            return "\(failure)".contains("CERTIFICATE_VERIFY_FAILED")
        }
        return false
    }

    /// The cause of `error` (a rejection), for the server at `host:port` expected to be
    /// `serverName` (`tls.serverName`, else `host`), or `nil` when the certificate cannot
    /// be read again.
    static func explain(
        _ error: any Error, host: String, port: Int, serverName: String? = nil, now: Date = SystemSources.now()
    ) async -> String? {
        let advice = "tls.caFile trusts a private CA, tls.serverName names the name to expect"
        // An IPv6 address comes as a URL writes it, in brackets.
        let address = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let expected = serverName ?? address
        guard let certificate = await peerCertificate(host: address, port: port, serverName: expected) else {
            return nil
        }
        let subject = describe(certificate.subjectName)
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return "the certificate of \(host) is issued for \(subject), not for \(expected) (\(advice))"
        }
        let notAfter = Date(timeIntervalSince1970: TimeInterval(certificate.notValidAfter))
        let notBefore = Date(timeIntervalSince1970: TimeInterval(certificate.notValidBefore))
        if now > notAfter {
            return "the certificate of \(host) (\(subject)) expired on \(day(notAfter)); the server must renew it"
        }
        if now < notBefore {
            return "the certificate of \(host) (\(subject)) is valid only from \(day(notBefore)): check this "
                + "machine's clock"
        }
        let issuer = describe(certificate.issuerName)
        let by = certificate.subjectName == certificate.issuerName ? "is self-signed" : "is issued by \(issuer)"
        return "the certificate of \(host) (\(subject)) \(by), which this machine does not trust (\(advice))"
    }

    /// The certificate the server at `host:port` presents for `name`, read without verifying it.
    private static func peerCertificate(host: String, port: Int, serverName name: String) async -> NIOSSLCertificate? {
        guard let context = try? NIOSSLContext(configuration: .makeClientConfiguration()) else { return nil }
        let serverName = name.isIPAddress ? nil : name
        let group = MultiThreadedEventLoopGroup.singleton
        let presented = group.any().makePromise(of: NIOSSLCertificate?.self)
        do {
            let channel = try await ClientBootstrap(group: group)
                .connectTimeout(.seconds(5))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        // The chain is read, then refused: the handshake ends there.
                        let handler = try NIOSSLClientHandler(
                            context: context, serverHostname: serverName,
                            customVerificationCallback: { chain, verdict in
                                presented.succeed(chain.first)
                                verdict.succeed(.failed)
                            })
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                }
                .connect(host: host, port: port).get()
            defer { channel.close(promise: nil) }
            channel.closeFuture.whenComplete { _ in presented.succeed(nil) }
            // A server that takes the connection and stalls gets 5 s for its handshake.
            channel.eventLoop.scheduleTask(in: .seconds(5)) { presented.succeed(nil) }
            return try await presented.futureResult.get()
        } catch {
            presented.succeed(nil)
            return nil
        }
    }

    /// `CN=api.example.com, O=Example` of a certificate name.
    private static func describe(_ names: [SSLCertificateName]) -> String {
        let labels: [(SSLCertificateNameType, String)] = [(.commonName, "CN"), (.organization, "O")]
        let parts = labels.flatMap { type, label in names.filter { $0.type == type }.map { "\(label)=\($0.value)" } }
        return parts.isEmpty ? "no name" : "\"\(parts.joined(separator: ", "))\""
    }

    private static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }
}

extension String {
    /// Whether the text is an IPv4 or IPv6 address literal (no SNI is sent for those).
    fileprivate var isIPAddress: Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, self, &v4) == 1 || inet_pton(AF_INET6, self, &v6) == 1
    }
}
