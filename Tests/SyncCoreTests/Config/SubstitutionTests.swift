import Foundation
import Testing

@testable import SyncCore

@Suite(.timeLimit(.minutes(1))) struct SubstitutionTests {
    let folder = NSTemporaryDirectory() + "substitution-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: folder + "/creds", withIntermediateDirectories: true)
        try Data("s3cr3t-token\n".utf8).write(to: URL(fileURLWithPath: folder + "/creds/api-token"))
        try Data("file-secret\r\n".utf8).write(to: URL(fileURLWithPath: folder + "/token.txt"))
    }

    func substitution() -> Substitution {
        Substitution(
            environment: ["HOST": "api.example.com", "CREDENTIALS_DIRECTORY": folder + "/creds"], folder: folder)
    }

    @Test func fillsEnvironmentCredentialsAndFiles() throws {
        var substitution = substitution()
        #expect(try substitution.apply("https://${HOST}/v1") == "https://api.example.com/v1")
        #expect(try substitution.apply("Bearer ${credential:api-token}") == "Bearer s3cr3t-token")
        #expect(try substitution.apply("${file:token.txt}") == "file-secret")
        #expect(try substitution.apply("${file:\(folder)/token.txt}") == "file-secret")
    }

    @Test func keepsTextWithoutReferencesAndUnescapesTheLiteralForm() throws {
        var substitution = substitution()
        #expect(try substitution.apply("price: $5, a $ sign") == "price: $5, a $ sign")
        #expect(try substitution.apply("$${HOST} stays") == "${HOST} stays")
        #expect(substitution.secrets.isEmpty)
    }

    @Test func remembersEveryFilledValueAsASecret() throws {
        var substitution = substitution()
        _ = try substitution.apply("${HOST} ${credential:api-token}")
        #expect(
            Set(substitution.secrets)
                == [
                    Redactor.Secret(value: "api.example.com", reference: "${HOST}"),
                    Redactor.Secret(value: "s3cr3t-token", reference: "${credential:api-token}"),
                ])
    }

    @Test func aMissingCredentialNamesIt() throws {
        var substitution = substitution()
        #expect {
            try substitution.apply("${credential:nope}")
        } throws: { error in
            (error as? Substitution.Problem)?.message == #"cannot read credential "nope": it does not exist"#
        }
    }

    // The config fuzz target's property: no configuration makes the loader hang.
    @Test func onlyARegularFileOfASaneSizeIsRead() throws {
        try Data(count: Substitution.maximumFileSize + 1).write(to: URL(fileURLWithPath: folder + "/huge"))
        var substitution = substitution()
        for (reference, problem) in [
            ("${file:/dev/zero}", "cannot read file /dev/zero: it is not a regular file"),
            ("${file:\(folder)}", "cannot read file \(folder): it is not a regular file"),
            (
                "${file:huge}",
                "cannot read file \(folder)/huge: it is 1048577 bytes; a secret file may be at most 1 MiB"
            ),
        ] {
            #expect {
                try substitution.apply(reference)
            } throws: { error in
                (error as? Substitution.Problem)?.message == problem
            }
        }
    }

    @Test func leftUnfilledNoReferenceIsReadOrMissed() throws {
        var substitution = Substitution(environment: [:], folder: folder, fillsReferences: false)
        #expect(try substitution.apply("https://${HOST}/v1") == "https://unfilled/v1")
        #expect(try substitution.apply("Bearer ${credential:missing}") == "Bearer unfilled")
        #expect(try substitution.apply("$${literal}") == "${literal}")
        #expect(substitution.secrets.isEmpty)
        #expect(throws: Substitution.Problem.self) { try substitution.apply("${unterminated") }
    }

    @Test func theRedactorReplacesSecretsAndTheirEncodedForms() {
        let redactor = Redactor(secrets: [
            Redactor.Secret(value: "s3cr3t token", reference: "${credential:api-token}"),
            Redactor.Secret(value: "s3cr3t", reference: "${SHORT}"),
        ])
        #expect(redactor.redact("Bearer s3cr3t token") == "Bearer ${credential:api-token}")
        #expect(
            redactor.redact("https://h/?t=s3cr3t%20token&u=s3cr3t") == "https://h/?t=${credential:api-token}&u=${SHORT}"
        )
        #expect(Redactor.none.redact("s3cr3t") == "s3cr3t")
    }

    @Test func theRedactorFindsNonASCIISecretsInTheFormTheAgentEncodes() {
        let redactor = Redactor(secrets: [Redactor.Secret(value: "pässwörd! 1", reference: "${P}")])
        let url = PagePlanner.url("https://h/", setting: [("p", "pässwörd! 1")])
        #expect(redactor.redact(url) == "https://h/?p=${P}")
    }

    @Test func valuesTooShortToBeSecretsAreLeftAlone() {
        let redactor = Redactor(secrets: [
            Redactor.Secret(value: "50", reference: "${SIZE}"), Redactor.Secret(value: "abcd", reference: "${K}"),
        ])
        #expect(redactor.redact("answered 503, key abcd") == "answered 503, key ${K}")
    }

    @Test func twoValuesKeptUnderOneNameGetReferencesOfTheirOwn() {
        var kept = substitution()
        kept.keepSecret("first-token", as: "[token]")
        kept.keepSecret("second-token", as: "[token]")
        kept.keepSecret("first-token", as: "[other]")
        #expect(kept.secrets.map { $0.reference } == ["[token]", "[token 2]"])
        let redactor = Redactor(secrets: kept.secrets)
        let sealed = redactor.seal("a=second-token&b=first-token")
        #expect(redactor.unseal(sealed) == "a=second-token&b=first-token")
    }

    @Test func credentialsWrittenInTheFileAreSecretsByTheirNames() throws {
        let config = try decodeConfig(
            #"""
            {"resources": [{"name": "users", "url": "https://u:pw-in-url@api.example.com/v1/users?access_token=tok-in-url&page_size=50",
              "query": {"api_key": "key-in-query", "status": "active-users"},
              "headers": {"Authorization": "Bearer bearer-in-header", "X-Api-Key": "key-in-header", "Accept-Language": "en-GB"},
              "key": "/id"}]}
            """#)
        let shown = config.redactor.redact(
            "pw-in-url tok-in-url key-in-query Bearer bearer-in-header bearer-in-header key-in-header active-users en-GB"
        )
        #expect(
            shown
                == "[password] [access_token] [api_key] Bearer [Authorization] [Authorization] [X-Api-Key] active-users en-GB"
        )
    }

    @Test func aPasswordWrittenInAURLIsSecretAsDecodedAndAsWrittenWhateverFillsTheUserName() throws {
        let config = try decodeConfig(
            #"""
            {"resources": [{"name": "users", "url": "https://${API_USER}:p%73ss-in-url@api.example.com/v1/users", "key": "/id"}]}
            """#, environment: ["API_USER": "agent"])
        // Written with an escape the redactor would not make.
        #expect(config.redactor.redact("psss-in-url p%73ss-in-url") == "[password] [password 2]")
    }
}

@Suite(.timeLimit(.minutes(1))) struct SealingTests {
    let redactor = Redactor(secrets: [
        Redactor.Secret(value: "a b+c/d", reference: "${API_TOKEN}"),
        Redactor.Secret(value: "s3cr3t|1}", reference: "${credential:odd}"),
    ])

    @Test func sealedTextHoldsNoSecretAndUnsealsToTheSameBytes() {
        for text in [
            "https://x.test/?token=a%20b%2Bc%2Fd&n=1", "https://x.test/a%20b+c/d?q=a b+c/d", #"{"key": "s3cr3t|1}"}"#,
            "no secret at all",
        ] {
            let sealed = redactor.seal(text)
            #expect(!sealed.contains("a b+c/d") && !sealed.contains("a%20b%2Bc%2Fd") && !sealed.contains("s3cr3t"))
            #expect(redactor.unseal(sealed) == text, "\(sealed)")
        }
    }

    @Test func afterARotationOldAndNewValuesAreScrubbedAndSealedTextUnsealsToTheNew() {
        let old = Redactor(secrets: [Redactor.Secret(value: "old token/1", reference: "${credential:token}")])
        let new = Redactor(secrets: [Redactor.Secret(value: "new token+2", reference: "${credential:token}")])
        let rotated = new.following(old)
        #expect(
            rotated.redact("Bearer old token/1, then Bearer new token+2, ?t=old%20token%2F1")
                == "Bearer ${credential:token}, then Bearer ${credential:token}, ?t=${credential:token}")
        // A request sealed before the rotation, or by a sync that began before
        // it, is sent with the new value, encoded as the old one was.
        for (before, after) in [
            ("https://x.test/?t=old%20token%2F1", "https://x.test/?t=new%20token%2B2"),
            (#"{"t": "old token/1"}"#, #"{"t": "new token+2"}"#),
        ] {
            #expect(rotated.unseal(old.seal(before)) == after)
            #expect(rotated.unseal(rotated.seal(before)) == after)
        }
        // The same values read again are no new generation.
        let again = Redactor(secrets: [Redactor.Secret(value: "new token+2", reference: "${credential:token}")])
        #expect(again.following(rotated).redact("old token/1") == "${credential:token}")
        // One generation back is scrubbed, not more.
        let third = Redactor(secrets: [Redactor.Secret(value: "third token", reference: "${credential:token}")])
        #expect(third.following(rotated).redact("new token+2, old token/1") == "${credential:token}, old token/1")
    }

    @Test func aSealedSecretThatIsNoLongerConfiguredCannotBeUnsealed() {
        let sealed = redactor.seal("https://x.test/?token=a%20b%2Bc%2Fd")
        #expect(Redactor(secrets: []).unseal(sealed) == nil)
        #expect(Redactor.none.unseal("plain ${HOME} text") == "plain ${HOME} text")
    }
}
